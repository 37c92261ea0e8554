/**
 * Rewrites the "Supported runtimes" table of the root README from the matrix's cases.
 */
import { readFile, writeFile } from "node:fs/promises";
import { withRuntimeTable } from "../src/readme-table.js";

const readmePath = new URL("../../../README.md", import.meta.url);
await writeFile(readmePath, withRuntimeTable(await readFile(readmePath, "utf8")));
console.log("README.md: Supported runtimes table written");
