/**
 * The tooling's examples are how other folders learn to use it: every one compiles against the
 * source, imported by the package's own subpaths as its users import it.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  lib: ["es2023", "dom"],
  minimum: 10,
});
