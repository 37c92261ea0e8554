/**
 * The example rule (see the root README's "Developing") for a private package: the module other
 * folders import (the benchmarks read the cases from `src/runtimes.ts`) documents every export with an
 * `@example`; internal modules keep one only where their use is not obvious. Every example is a
 * fenced TypeScript block that compiles against the source with the package's own settings. Only the
 * compiler runs: no runtime of the matrix needs to be installed.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

// The package's settings (tsconfig.json: ES2023 and DOM); the workspace packages it tests resolve
// through its node_modules, as its own source imports them.
describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  lib: ["es2023", "dom"],
  shared: { "src/runtimes.ts": ["binaryPath", "RUNTIME_CASES", "unavailable"] },
  minimum: 1,
});
