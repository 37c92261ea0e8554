/**
 * Reading the key file from disk. This is the only module of the library that needs
 * Node's file system; everything else sticks to Web-standard APIs.
 */
import { readFile, stat } from "node:fs/promises";
import { KeyFileReadError } from "./errors.js";
import { MAX_KEY_FILE_LENGTH, parseServiceAccountKey, type ServiceAccountKey } from "./key-file.js";
import { assertServerRuntime } from "./runtime.js";

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EISDIR: "it is a directory, not a file",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  ENOTDIR: "a component of the path is not a directory",
};

/**
 * Reads a service account JSON key file and parses it with {@link parseServiceAccountKey}.
 * Errors name the path (never the contents).
 *
 * @example
 * ```ts
 * import { createTokenProvider } from "@drill-practice/auth";
 * import { readServiceAccountKey } from "@drill-practice/auth/node";
 *
 * const key = await readServiceAccountKey(process.env.DRILL_KEY_FILE ?? "./service-account.json");
 * const provider = createTokenProvider({
 *   baseUrl: "https://drill.example",
 *   clientId: process.env.DRILL_CLIENT_ID ?? "",
 *   clientSecret: process.env.DRILL_CLIENT_SECRET ?? "",
 *   key,
 * });
 * ```
 */
export async function readServiceAccountKey(path: string): Promise<ServiceAccountKey> {
  assertServerRuntime();
  if (typeof path !== "string" || path.trim() === "") {
    throw new KeyFileReadError("the key file path must be a non-empty string");
  }
  let text: string;
  try {
    const info = await stat(path);
    if (info.isFile() && info.size > MAX_KEY_FILE_LENGTH) {
      throw new KeyFileReadError(`is ${info.size} bytes, far too large to be a key file`, { source: path });
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof KeyFileReadError) throw error;
    const code = (error as { code?: unknown }).code;
    const reason =
      (typeof code === "string" && REASONS[code]) || (typeof code === "string" ? code : "unreadable");
    throw new KeyFileReadError(`cannot be read: ${reason}`, { source: path, cause: error });
  }
  return parseServiceAccountKey(text, { source: path });
}
