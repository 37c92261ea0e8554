/**
 * The example rule (see the root README's "Developing") for the tooling: its exports map makes every
 * module of `src` an entry other folders import (`@drill-practice/tooling/<module>`), so every name
 * they export carries an `@example` that uses it, and every example compiles against the source,
 * imported by the package's own subpaths as its users import it.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** Each module of `src` under its subpath, as the exports map (`"./*": "./src/*.ts"`) resolves it. */
const ENTRIES = Object.fromEntries(
  readdirSync(new URL("../src", import.meta.url))
    .filter((file) => file.endsWith(".ts"))
    .map((file) => [`@drill-practice/tooling/${file.slice(0, -".ts".length)}`, `src/${file}`]),
);

describeSourceExamples("documentation examples", {
  packageDir,
  lib: ["es2023", "dom"],
  entries: ENTRIES,
  paths: ENTRIES,
  minimum: 20,
});
