/**
 * Rewrites the README's generated API 2.1.1 tables from `dist/openapi.json` (run `pnpm generate` first).
 */
import { readFile, writeFile } from "node:fs/promises";
import { updateVersionTables, withoutPageNotes } from "./version-tables.ts";

const readmeUrl = new URL("../README.md", import.meta.url);
const full = JSON.parse(await readFile(new URL("../dist/openapi.json", import.meta.url), "utf8"));
const readme = await readFile(readmeUrl, "utf8");
const updated = updateVersionTables(readme, full, withoutPageNotes());
if (updated !== readme) await writeFile(readmeUrl, updated);
console.log(
  updated === readme ? "README.md: 2.1.1 tables already current" : "README.md: 2.1.1 tables updated",
);
