/**
 * The example rule (see the root README's "Developing") for a private package: the modules other
 * folders import (the benchmarks build, compress and serve the site with them; the spec diff
 * reads the pages' code samples with the snippets helper) document every export with an `@example`;
 * internal modules keep one only where their use is not obvious. Every example in the source, the
 * scripts and the test helpers is a fenced TypeScript block that compiles against the code it shows.
 */
import { fileURLToPath } from "node:url";
import { describeSourceExamples } from "@drill-practice/tooling/examples-suite";

// The package's own settings: its source imports its modules with their `.ts` extension.
describeSourceExamples("documentation examples", {
  packageDir: fileURLToPath(new URL("..", import.meta.url)),
  folders: ["src", "scripts", "test/helpers"],
  lib: ["es2023"],
  tsExtensions: true,
  shared: {
    "src/offline-assets.ts": ["localizeRedocAssets", "redocCreditFile"],
    "src/precompress.ts": ["precompress"],
    "src/redoc-build.ts": ["runBuildDocs"],
    "src/shared-redoc.ts": ["splitRedocBundle"],
    "src/static-server.ts": ["startStaticServer"],
    "src/try-it/page-config.ts": ["readTryItPage", "withoutTryIt"],
    "test/helpers/snippets.ts": ["htmlSnippets", "markdownSnippets", "readmeFiles"],
  },
  minimum: 10,
});
