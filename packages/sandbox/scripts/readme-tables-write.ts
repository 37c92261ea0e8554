/**
 * Regenerates the tables of README.md (run after changing the simulated operations or error IDs).
 */
import { readFile, writeFile } from "node:fs/promises";
import { bundledSpec } from "../src/http/bundled-spec.js";
import { updateReadme } from "./readme-tables.js";

const readmeUrl = new URL("../README.md", import.meta.url);
const readme = await readFile(readmeUrl, "utf8");
const updated = updateReadme(readme, bundledSpec());
if (updated !== readme) await writeFile(readmeUrl, updated);
console.log(updated === readme ? "README.md: tables already current" : "README.md: tables updated");
