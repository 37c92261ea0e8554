/**
 * Every `@example` in the spec's scripts is a fenced TypeScript block, and every one of them compiles
 * against the script it documents, so no example can drift from the code it shows. (The OpenAPI
 * examples of the spec itself are checked by `examples.test.ts`.)
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

// The scripts' own settings: they import each other with their `.ts` extension.
describeSourceExamples("documentation examples of the spec's scripts", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  folders: ["scripts"],
  lib: ["es2023"],
  tsExtensions: true,
  minimum: 5,
});
