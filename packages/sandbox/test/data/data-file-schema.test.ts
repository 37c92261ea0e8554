/**
 * The published JSON Schema of the data file format (`@drill-practice/sandbox/data-file.schema.json`):
 * editors check data files with it, so it must accept every file the sandbox accepts and refuse, at
 * the same place, what the sandbox's field checks refuse.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { validateDataFile } from "../../src/data/data-file.js";
import { defaultDataset } from "../../src/data/default-dataset.js";
import { createState } from "../../src/domain/state.js";

const packageDir = new URL("../../", import.meta.url);
const manifest = JSON.parse(await readFile(new URL("package.json", packageDir), "utf8")) as {
  exports: Record<string, unknown>;
};
const schemaPath = manifest.exports["./data-file.schema.json"] as string;
const schema = JSON.parse(await readFile(new URL(schemaPath, packageDir), "utf8")) as object;
const ajv = new Ajv.default({ allErrors: true, strict: true });
addFormats.default(ajv);
const check = ajv.compile(schema);

/** The JSON paths (`$.drills[0].items`) of what the schema refuses, in the checker's notation. */
function schemaPaths(value: unknown): string[] {
  if (check(value)) return [];
  return (check.errors ?? []).map((error) => {
    const path = error.instancePath
      .split("/")
      .slice(1)
      .map((part) =>
        /^\d+$/.test(part) ? `[${part}]` : `.${part.replaceAll("~1", "/").replaceAll("~0", "~")}`,
      )
      .join("");
    // Where the checker names the field itself: the unknown or missing one, the repeated element.
    const { params } = error;
    const extra =
      error.keyword === "additionalProperties"
        ? `.${params.additionalProperty}`
        : error.keyword === "required"
          ? `.${params.missingProperty}`
          : error.keyword === "uniqueItems"
            ? `[${Math.max(params.i, params.j)}]`
            : "";
    return `$${path}${extra}`;
  });
}

function minimal(): Record<string, unknown> {
  return {
    organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
    users: [{ id: "sa", name: "Service", emails: ["sa@example.test"], organizationId: "org" }],
    drills: [
      {
        id: "d1",
        name: "Drill",
        subject: "S",
        askName: "A",
        tellName: "T",
        items: [{ ask: "a", tell: "b" }],
      },
    ],
  };
}

describe("the data file's JSON Schema", () => {
  it("is published in the exports map and accepts the built-in, the example and a snapshot", async () => {
    expect(schemaPath).toBe("./data/data-file.schema.json");
    const example = JSON.parse(
      await readFile(fileURLToPath(new URL("data/example.json", packageDir)), "utf8"),
    );
    expect(schemaPaths(example)).toEqual([]);
    const builtIn = await defaultDataset();
    expect(schemaPaths(builtIn)).toEqual([]);
    expect(schemaPaths(JSON.parse(JSON.stringify(createState(builtIn).snapshot())))).toEqual([]);
  });

  // One broken field per rule of the format; the schema refuses each where the checker does.
  const broken: [string, (file: Record<string, unknown>) => void, string][] = [
    ["an unknown top-level field", (f) => Object.assign(f, { drils: [] }), "$.drils"],
    ["no organization", (f) => Object.assign(f, { organizations: [] }), "$.organizations"],
    [
      "a blank name",
      (f) => (((f.users as { name: string }[])[0] as { name: string }).name = "  "),
      "$.users[0].name",
    ],
    [
      "a bad email address",
      (f) => Object.assign((f.users as object[])[0] as object, { emails: ["nope"] }),
      "$.users[0].emails[0]",
    ],
    [
      "a third-party ID without its ID after the `$`",
      (f) => Object.assign((f.users as object[])[0] as object, { thirdPartyIds: ["ACME$ "] }),
      "$.users[0].thirdPartyIds[0]",
    ],
    [
      "a repeated tag",
      (f) => Object.assign((f.drills as object[])[0] as object, { tags: ["x", "x"] }),
      "$.drills[0].tags[1]",
    ],
    [
      "a drill without items",
      (f) => Object.assign((f.drills as object[])[0] as object, { items: [] }),
      "$.drills[0].items",
    ],
    [
      "an item without tell",
      (f) => Object.assign((f.drills as object[])[0] as object, { items: [{ ask: "a" }] }),
      "$.drills[0].items[0].tell",
    ],
    [
      "a course typed DRILL",
      (f) =>
        Object.assign(f, { courses: [{ id: "c", type: "DRILL", name: "C", subject: "S", drillIds: [] }] }),
      "$.courses[0].type",
    ],
    [
      "a staff permission of another word",
      (f) =>
        Object.assign((f.organizations as object[])[0] as object, {
          staff: [{ userId: "sa", permission: "OWN" }],
        }),
      "$.organizations[0].staff[0].permission",
    ],
    [
      "a proficiency over 100",
      (f) =>
        Object.assign(f, {
          practice: [
            { userId: "sa", drillId: "d1", answerCount: 1, correctCount: 1, receptive: 101, productive: 0 },
          ],
        }),
      "$.practice[0].receptive",
    ],
    [
      "a review date that is no date",
      (f) =>
        Object.assign(f, {
          groups: [{ id: "g", name: "G", organizationId: "org", memberIds: [], drillableIds: [] }],
          objectives: [{ id: "o", groupId: "g", reviewDate: "soon", minimumProficiency: 50, drillIds: [] }],
        }),
      "$.objectives[0].reviewDate",
    ],
  ];
  it.each(broken)("refuses %s where the checker does", (_name, breakIt, path) => {
    const file = minimal();
    expect(schemaPaths(file)).toEqual([]);
    expect(validateDataFile(file).ok).toBe(true);
    breakIt(file);
    const checked = validateDataFile(file);
    expect(checked.ok ? [] : checked.problems.map((p) => p.path)).toContain(path);
    expect(schemaPaths(file)).toContain(path);
  });
});
