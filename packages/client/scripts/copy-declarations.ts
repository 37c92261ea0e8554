/**
 * Copies hand-off declaration files (`src/**\/*.d.ts`, i.e. the generated
 * `src/generated/openapi.d.ts`) into `dist`. tsc type-checks such files but
 * never emits them, and `dist/generated/schemas.d.ts` imports it.
 */
import { copyFile, mkdir, readdir } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const source = join(root, "src");
const target = join(root, "dist");

const entries = await readdir(source, { recursive: true, withFileTypes: true });
let copied = 0;
for (const entry of entries) {
  if (!entry.isFile() || !entry.name.endsWith(".d.ts")) continue;
  const from = join(entry.parentPath, entry.name);
  const to = join(target, relative(source, from));
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to);
  copied++;
}
if (copied === 0) {
  console.error("copy-declarations: no .d.ts files under src; run pnpm generate first");
  process.exit(1);
}
console.log(`copy-declarations: copied ${copied} declaration file(s) to dist`);
