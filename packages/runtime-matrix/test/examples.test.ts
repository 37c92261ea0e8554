/**
 * Every `@example` of the matrix's source is a fenced TypeScript block, as in the other packages, and
 * compiles against that source with the package's own settings, so no example can drift from the code
 * it shows. Only the compiler runs: no runtime of the matrix needs to be installed.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "../../../scripts/source-examples-suite.js";

// The package's settings (tsconfig.json: ES2023 and DOM); the workspace packages it tests resolve
// through its node_modules, as its own source imports them.
describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  lib: ["es2023", "dom"],
  minimum: 11,
});
