/**
 * Every `@example` in the package's source, scripts and test helpers is a fenced TypeScript block,
 * and every one of them compiles against the code it documents, so no example can drift from it.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "../../../scripts/source-examples-suite.js";

// The package's own settings: its source imports its modules with their `.ts` extension.
describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  folders: ["src", "scripts", "test/helpers"],
  lib: ["es2023"],
  tsExtensions: true,
  minimum: 36,
});
