/**
 * Writes the default dataset to `data/default.json` (`pnpm run data:default`), or with `--check` only
 * compares: exits 1 when the committed file is not what the builder makes, so the two cannot drift.
 */
import { readFile, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { DEFAULT_DATA_FILE_URL } from "../src/data/data-file-read.js";
import { renderDefaultDataFile } from "./dataset/default-data-file.js";

const path = fileURLToPath(DEFAULT_DATA_FILE_URL);
const text = renderDefaultDataFile();
if (process.argv.includes("--check")) {
  const committed = await readFile(path, "utf8").catch(() => "");
  if (committed !== text) {
    console.error(`${path} differs from what scripts/dataset builds; run \`pnpm run data:default\``);
    process.exit(1);
  }
  console.log(`${path} is up to date`);
} else {
  await writeFile(path, text);
  console.log(`wrote ${path}`);
}
