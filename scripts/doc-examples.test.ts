/**
 * The example rule (see the README's "Developing") for the repository's own tooling: the modules of
 * `scripts/` that other folders import document every export with an `@example`; the rest keep one
 * only where their use is not obvious. Every `@example` of the scripts and the benchmarks is a fenced
 * TypeScript block that compiles against the code it shows.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

// The root tsconfig's settings: the tooling imports its modules with their `.ts` extension.
describeSourceExamples("documentation examples of the scripts and benchmarks", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  folders: ["scripts", "bench"],
  lib: ["es2023", "dom"],
  tsExtensions: true,
  // Imported by the packages' tests, the spec's tests and the benchmarks.
  shared: {
    "scripts/spec-diff/changelog.ts": ["groupFindings", "SEVERITY_TITLES", "showValue", "VersionChanges"],
    "scripts/spec-diff/classify.ts": ["classifyChanges"],
    "scripts/test-requirements.ts": ["declareMissing", "underCI", "warnBox"],
    "scripts/drift/own-traffic.ts": ["INVALID_REQUESTS", "OWN_TRAFFIC"],
    "scripts/drift/traffic-run.ts": ["recordTraffic"],
  },
  minimum: 10,
});
