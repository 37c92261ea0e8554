/**
 * The release step's half of the spec diff, run by `pnpm run version` after `changeset version`
 * and `pnpm generate`: archives the release's changes (spec/baseline/changes/<client version>.json,
 * what the docs' Changes page shows) and makes the current state the new spec/baseline/. It refuses
 * while the consumer code calls no operation of some tag of some version.
 *
 * Usage: tsx scripts/spec-baseline.ts
 */
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { writeBaseline } from "./spec-diff/baseline.ts";
import { collectConsumers } from "./spec-diff/consumers.ts";
import { uncoveredTags } from "./spec-diff/tag-coverage.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
try {
  const consumers = collectConsumers(root);
  const gaps = uncoveredTags(
    join(root, "spec/dist"),
    consumers.map((file) => file.code),
  );
  if (gaps.length > 0) {
    console.error(
      "spec-baseline: the release's consumer code must call an operation of every tag; none calls:",
    );
    for (const gap of gaps)
      console.error(
        `  API ${gap.version}, tag ${gap.tag} (e.g. ${gap.operations[0]}): add a call to scripts/spec-diff/consumer-calls/`,
      );
    process.exit(1);
  }
  const written = writeBaseline({
    root,
    distDir: join(root, "spec/dist"),
    baselineDir: join(root, "spec/baseline"),
    consumers,
  });
  if (written.archived) console.log(`spec-baseline: wrote ${relative(root, written.archived)}`);
  console.log(
    `spec-baseline: spec/baseline/ holds the bundles, ${written.snapshot.files.length} consumer file(s) and the types' hash`,
  );
  for (const left of written.snapshot.leftOut)
    console.log(`  left out (does not compile here): ${left.reason}`);
} catch (error) {
  console.error(`spec-baseline: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
