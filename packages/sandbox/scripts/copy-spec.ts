/**
 * The package's `generate` step: copies the bundled OpenAPI description from the spec workspace into
 * `openapi/openapi.json`, which the sandbox reads at run time and which ships in the npm package.
 */
import { copyFile, mkdir, stat } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const source = new URL("../../../spec/dist/openapi.json", import.meta.url);
const targetDir = new URL("../openapi/", import.meta.url);
const target = new URL("openapi.json", targetDir);

const found = await stat(source).catch(() => undefined);
if (!found?.isFile()) {
  console.error(
    `copy-spec: ${fileURLToPath(source)} does not exist; run \`pnpm --filter @drill-practice/spec generate\` first`,
  );
  process.exit(1);
}
await mkdir(targetDir, { recursive: true });
await copyFile(source, target);
console.log(`copy-spec: ${fileURLToPath(source)} -> ${fileURLToPath(target)}`);
