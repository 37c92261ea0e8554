/**
 * The default dataset as data file text: format version first, then the dataset, one stable layout.
 */
import { DATA_FILE_FORMAT_VERSION } from "../../src/data/data-file.js";
import { createDefaultDataset } from "./default-dataset.js";

/**
 * The text of `data/default.json`, deterministic for the builder's code and seed.
 */
export function renderDefaultDataFile(): string {
  return `${JSON.stringify({ formatVersion: DATA_FILE_FORMAT_VERSION, ...createDefaultDataset() }, null, 1)}\n`;
}
