/**
 * The example rule (see the root README's "Developing"): every name the public entries export carries
 * an `@example` that uses it, and every example in the package (the entries' own header comments and
 * those internal modules keep) compiles against the package's source, so no example can drift from
 * the code it shows.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

const ENTRIES = {
  "@drill-practice/auth": "src/index.ts",
  "@drill-practice/auth/node": "src/node.ts",
  "@drill-practice/auth/redis": "src/redis/index.ts",
};

describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  lib: ["es2023", "dom"],
  entries: ENTRIES,
  // What examples import: the entries, and the client they are used with, from source.
  paths: {
    ...ENTRIES,
    "@drill-practice/client": "../client/src/index.ts",
    "@drill-practice/client/internal": "../client/src/core/index.ts",
  },
  // One or more per public export (internals keep one only where their use is not obvious).
  minimum: 60,
});
