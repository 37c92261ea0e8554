/**
 * Prints, per version, how many operations answer a body naming fields, a message only or an empty
 * object, how many take a typed request and how many carry an error table, each split into observed
 * (`x-observed`) and given by the interface. Reads `dist/openapi.json` (run `pnpm generate` first).
 *
 *   pnpm --filter @drill-practice/spec run answers          # the table
 *   pnpm --filter @drill-practice/spec run answers --list   # plus one line per typed operation
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type BundleDocument, classifyOperations, countByVersion, formatCounts } from "./answer-kinds.ts";

const bundlePath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));
let document: BundleDocument;
try {
  document = JSON.parse(readFileSync(bundlePath, "utf8")) as BundleDocument;
} catch (error) {
  console.error(`answers: cannot read ${bundlePath} (${(error as Error).message}); run pnpm generate first`);
  process.exit(1);
}
const kinds = classifyOperations(document);
console.log(formatCounts(countByVersion(kinds)));
if (process.argv.includes("--list")) {
  console.log("");
  for (const k of kinds) {
    if (k.answer === "open" && !k.typedRequest && !k.errorTable) continue;
    const parts = [
      k.answer === "open"
        ? undefined
        : `answer ${k.answer}${k.answerSchema ? ` ${k.answerSchema}` : ""}${k.answerObserved ? " (observed)" : ""}`,
      k.typedRequest ? `typed request${k.requestObserved ? " (observed)" : ""}` : undefined,
      k.errorTable ? "error table" : undefined,
    ].filter((p) => p !== undefined);
    console.log(`${k.version.padEnd(4)} ${k.operationId}: ${parts.join("; ")}`);
  }
}
