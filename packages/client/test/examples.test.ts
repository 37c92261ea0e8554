/**
 * The example rule (see the root README's "Developing"): every name an entry of the exports map
 * exports carries an `@example` that uses it, and every example (those of the public exports, the
 * generated types' and the few internal modules keep, the README's TypeScript blocks) compiles
 * against the package's own source, so no example can drift from the API.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { markdownBlocks } from "@drill-practice/tooling/examples";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/**
 * One entry per subpath of the exports map. `./internal` is not part of the public contract, but
 * the other packages build on it, so its names are documented as public ones are.
 */
const ENTRIES = {
  "@drill-practice/client": "src/index.ts",
  "@drill-practice/client/internal": "src/core/index.ts",
  "@drill-practice/client/v2.1.1": "src/v2.1.1.ts",
  "@drill-practice/client/v2.1": "src/v2.1.ts",
  "@drill-practice/client/v2.0": "src/v2.0.ts",
  "@drill-practice/client/pagination": "src/pagination.ts",
};

describeSourceExamples("documentation examples", {
  packageDir,
  // The generated types' examples too (the generator writes them from the description's examples).
  withGenerated: true,
  // The client runs without Node: its examples compile without Node's types.
  lib: ["es2023", "dom", "dom.iterable"],
  types: [],
  tsExtensions: true,
  entries: ENTRIES,
  paths: ENTRIES,
  also: async () => markdownBlocks(await readFile(join(packageDir, "README.md"), "utf8"), "ts"),
  minimum: 300,
});
