/**
 * Checks a data file while reading it: the file goes through the scanner in chunks and each record of
 * the top-level lists is checked as soon as it is complete, so neither the file's text nor its whole
 * parsed tree is ever held; only the checked records are kept.
 */
import { open } from "node:fs/promises";
import type { DataFileValidation } from "./data-file-checker.js";
import { DataFileChecker, isDataFileSection } from "./data-file-checker.js";
import { TopLevelScanner } from "./json-top-level-scanner.js";

/** Large enough that the per-read overhead vanishes, small enough not to matter for memory. */
const CHUNK_BYTES = 1 << 20;

/**
 * Reads and checks the data file at `path`, `chunkBytes` at a time (tests use tiny reads to put read
 * boundaries everywhere).
 *
 * Errors: `JsonScanError` when the file cannot be streamed (malformed JSON, a top level that is not an
 * object, a repeated top-level name); file system errors as `open` and `read` report them.
 */
export async function streamDataFile(
  path: string,
  chunkBytes: number = CHUNK_BYTES,
): Promise<DataFileValidation> {
  const checker = new DataFileChecker();
  // Rebuilt with the file's top-level names in the file's order, so unknown names are reported in the
  // order `Object.keys` gives for a parsed file; the lists in it are placeholders, checked as they stream.
  const root: Record<string, unknown> = {};
  const define = (key: string, value: unknown) =>
    // Defined, not assigned: a `__proto__` name is an ordinary property in JSON.parse's result too.
    Object.defineProperty(root, key, { value, enumerable: true, writable: true, configurable: true });
  const scanner = new TopLevelScanner({
    streams: isDataFileSection,
    member(key, value) {
      define(key, value);
      if (isDataFileSection(key)) checker.section(key, value);
    },
    element(key, index, value) {
      if (isDataFileSection(key)) checker.entry(key, index, value);
    },
    arrayEnd(key, length) {
      define(key, []);
      if (isDataFileSection(key)) checker.sectionEnd(key, length);
    },
  });
  // One buffer for every read, not a new one per read as a read stream gives (each left for the garbage
  // collector); the scanner copies the little it keeps across reads.
  const buffer = Buffer.allocUnsafe(chunkBytes);
  const file = await open(path, "r");
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      scanner.write(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  scanner.end();
  checker.root(root);
  return checker.finish();
}
