/**
 * The repository's own tooling documents itself the way the packages do: every `@example` of the
 * scripts and the benchmarks is a fenced TypeScript block that compiles against the code it shows.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "./source-examples-suite.ts";

// The root tsconfig's settings: the tooling imports its modules with their `.ts` extension.
describeSourceExamples("documentation examples of the scripts and benchmarks", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  folders: ["scripts", "bench"],
  lib: ["es2023", "dom"],
  tsExtensions: true,
  minimum: 26,
});
