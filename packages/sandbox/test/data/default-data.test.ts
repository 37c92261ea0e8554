import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderDefaultDataFile } from "../../scripts/dataset/default-data-file.js";
import { createDefaultDataset } from "../../scripts/dataset/default-dataset.js";
import { DEFAULT_DATA_FILE_URL } from "../../src/data/data-file-read.js";
import { loadDataset } from "../../src/data/dataset-loader.js";
import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { client, start, tokenFor } from "../support/helpers.js";

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

  it("starts with practice: Ana meets the group's objective and Bram does not, group results and Ana's status show it", async () => {
    const sandbox = await start({ data: undefined });
    const sa = client(sandbox, await tokenFor(sandbox));
    const { ana, bram, chloe } = DEFAULT_IDS.users;
    const evaluations = (
      await sa("GET", `/api/2.1/group/${DEFAULT_IDS.group}/objective/${DEFAULT_IDS.objective}/evaluations`)
    ).body as { evaluations: { user: { id: string }; met: boolean; proficiency: number }[] };
    const byUser = new Map(evaluations.evaluations.map((e) => [e.user.id, e]));
    expect(byUser.get(ana)?.met).toBe(true);
    expect(byUser.get(ana)?.proficiency).toBeGreaterThanOrEqual(60);
    expect(byUser.get(bram)?.met).toBe(false);
    expect(byUser.get(bram)?.proficiency).toBeGreaterThan(0);
    expect(byUser.get(chloe)).toMatchObject({ met: false, proficiency: 0 });

    const results = (await sa("GET", `/api/2/group/${DEFAULT_IDS.group}/results`)).body as {
      averageProficiency: number;
      averageDrillResults: { id: string; proficiency: number }[];
    };
    expect(results.averageProficiency).toBeGreaterThan(0);
    for (const id of ["es-animals-to-en", "es-colours-to-en"]) {
      expect(results.averageDrillResults.find((d) => d.id === id)?.proficiency, id).toBeGreaterThan(0);
    }

    const asAna = client(sandbox, await tokenFor(sandbox, ana));
    const rendition = (await asAna("GET", "/api/2.1/rendition/es-animals-to-en")).body;
    expect(rendition).toMatchObject({
      answerCount: 24,
      correctCount: 20,
      proficiency: { receptive: 85, productive: 65, overall: 75 },
      highestProficiency: { receptive: 85, productive: 65, overall: 75 },
    });
    // A right answer moves her proficiency on from the seeded values, not from zero.
    const drill = createDefaultDataset().drills.find((d) => d.id === "es-animals-to-en");
    const q = (await asAna("GET", "/api/2.1/question/es-animals-to-en")).body as {
      question: { reference: string; ask: { term: { value: string } } };
    };
    const answer = drill?.items.find((item) => item.ask === q.question.ask.term.value)?.tell;
    if (answer === undefined) throw new Error(`no item asks ${q.question.ask.term.value}`);
    const reply = (await asAna("PUT", `/api/2/answer/${q.question.reference}`, { body: { answer } }))
      .body as {
      proficiency: { receptive: number; productive: number };
    };
    expect(reply.proficiency.receptive).toBeGreaterThan(85);
    expect(reply.proficiency.productive).toBeGreaterThan(65);
  });
});
