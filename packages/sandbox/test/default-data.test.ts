import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderDefaultDataFile } from "../scripts/dataset/default-data-file.js";
import { createDefaultDataset } from "../scripts/dataset/default-dataset.js";
import { DEFAULT_DATA_FILE_URL } from "../src/data/data-file-read.js";
import { loadDataset } from "../src/data/dataset-loader.js";
import { DEFAULT_IDS } from "../src/data/default-ids.js";

describe("default dataset file", () => {
  it("is exactly what the builder script writes (run `pnpm run data:default` after changing it)", async () => {
    expect(await readFile(DEFAULT_DATA_FILE_URL, "utf8")).toBe(renderDefaultDataFile());
  });

  it("is what the sandbox serves without --data, read through the data file loader", async () => {
    const { data } = await loadDataset({});
    expect(data).toEqual(createDefaultDataset());
    const ids = new Set(
      [...data.drills, ...data.courses, ...data.catalogs, ...data.users, ...data.groups].map((x) => x.id),
    );
    const named = [
      DEFAULT_IDS.organization,
      DEFAULT_IDS.serviceAccount,
      ...Object.values(DEFAULT_IDS.users),
      ...Object.values(DEFAULT_IDS.catalogs),
      DEFAULT_IDS.group,
    ];
    for (const id of named.slice(1)) expect(ids.has(id), id).toBe(true);
    expect(data.organizations.map((o) => o.id)).toEqual([DEFAULT_IDS.organization]);
  });
});
