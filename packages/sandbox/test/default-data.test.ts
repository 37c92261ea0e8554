import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderDefaultDataFile } from "../scripts/dataset/default-data-file.js";
import { createDefaultDataset } from "../scripts/dataset/default-dataset.js";
import { DEFAULT_DATA_FILE_URL } from "../src/data/data-file-read.js";
import { loadDataset } from "../src/data/dataset-loader.js";
import { DEFAULT_IDS } from "../src/data/default-ids.js";
import { client, start, tokenFor } from "./helpers.js";

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
      DEFAULT_IDS.course,
    ];
    for (const id of named.slice(1)) expect(ids.has(id), id).toBe(true);
    expect(data.objectives?.map((o) => o.id)).toContain(DEFAULT_IDS.objective);
    const ana = data.users.find((u) => u.id === DEFAULT_IDS.users.ana);
    expect(ana?.emails).toContain(DEFAULT_IDS.email);
    expect(data.organizations.map((o) => o.id)).toEqual([DEFAULT_IDS.organization]);
  });
});

describe("default dataset through the API", () => {
  it("has what the organization flows start from: staff, the service account's user, managed users, a staffed group with an objective", async () => {
    const sandbox = await start({ data: undefined });
    const sa = client(sandbox, await tokenFor(sandbox));
    const org = DEFAULT_IDS.organization;
    const own = (await sa("GET", "/api/2.1/user")).body as { id: string; organization?: { id: string } };
    expect(own).toMatchObject({ id: DEFAULT_IDS.serviceAccount, organization: { id: org } });
    const staff = (await sa("GET", `/api/2/organization/${org}/staff`)).body as { total: number };
    expect(staff.total).toBeGreaterThan(0);
    const users = (await sa("GET", "/api/2/users")).body as { users: { id: string }[] };
    const managed = users.users.filter((u) => u.id !== DEFAULT_IDS.serviceAccount);
    expect(managed.length).toBeGreaterThanOrEqual(2);
    const group = `/api/2.1/group/${DEFAULT_IDS.group}`;
    const members = (await sa("GET", `${group}/members`)).body as { members: unknown[] };
    expect(members.members.length).toBeGreaterThan(0);
    const groupStaff = (await sa("GET", `${group}/staff`)).body as { count?: number; total?: number };
    expect(groupStaff.count ?? groupStaff.total).toBeGreaterThan(0);
    const objectives = (await sa("GET", `/api/2/group/${DEFAULT_IDS.group}/objectives`)).body as unknown[];
    expect(objectives.length).toBeGreaterThan(0);
  });
});
