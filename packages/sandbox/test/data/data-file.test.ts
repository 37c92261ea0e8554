import { generateKeyPairSync } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import { parseDataFile, validateDataFile } from "../../src/data/data-file.js";
import { readDataFile } from "../../src/data/data-file-read.js";
import { createState } from "../../src/domain/state.js";
import type { DataFileProblem } from "../../src/errors.js";
import { DataFileError } from "../../src/errors.js";

const examplePath = fileURLToPath(new URL("../../data/example.json", import.meta.url));

function minimal(): Record<string, unknown> {
  return {
    organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
    users: [
      { id: "sa", name: "Service", organizationId: "org" },
      { id: "u1", name: "One", emails: ["one@example.test"], thirdPartyIds: ["t-1"], organizationId: "org" },
    ],
    drills: [
      {
        id: "d1",
        name: "Drill",
        subject: "Subject",
        askName: "Ask",
        tellName: "Tell",
        items: [{ ask: "a", tell: "b" }],
      },
    ],
  };
}

function problemsOf(value: unknown): DataFileProblem[] {
  const result = validateDataFile(value);
  if (result.ok) throw new Error("expected problems");
  return [...result.problems];
}

describe("the example file", () => {
  it("validates and starts a working state", async () => {
    const data = await readDataFile(examplePath);
    expect(data.drills.map((d) => d.id)).toEqual(["pt-greetings", "pt-numbers", "harbour-staff-terms"]);
    expect(data.courses[0]).toMatchObject({
      type: "COURSE",
      inStore: true,
      drillIds: ["pt-greetings", "pt-numbers"],
    });
    expect(data.users[0]).toEqual({
      id: "svc-harbour",
      name: "Harbour integration",
      emails: [],
      thirdPartyIds: [],
      organizationId: "org-harbour-school",
    });
    const state = createState(data);
    // The course mentions greetings in its description.
    expect(
      state.searchStore("user-ines", { query: "portuguese AND greetings" }).drills.map((d) => d.id),
    ).toEqual(["pt-greetings", "course-pt-first-week"]);
    expect(state.searchStore("user-ines", { query: "staff" }).total).toBe(0);
    expect(state.searchStore("user-ines", { catalog: "catalog-harbour-staff" }).total).toBe(2);
    expect(state.nextQuestion("user-jonas", ["course-pt-first-week"]).question.tell.terms).toHaveLength(4);
    expect(state.getRendition("user-jonas", "pt-greetings")).toMatchObject({
      answerCount: 12,
      correctCount: 9,
      proficiency: { receptive: 75, productive: 40, overall: 58 },
    });
  });
});

describe("validateDataFile", () => {
  it("fills in defaults for optional fields", () => {
    const result = validateDataFile(minimal());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.data.drills[0]).toEqual({
      id: "d1",
      type: "DRILL",
      name: "Drill",
      subject: "Subject",
      description: "",
      tags: [],
      inStore: true,
      askName: "Ask",
      tellName: "Tell",
      items: [{ ask: "a", tell: "b" }],
    });
    expect(result.data).toMatchObject({ courses: [], catalogs: [], groups: [] });
  });

  it("reports every shape problem at once with its JSON path", () => {
    const file = minimal();
    file.drills = [
      ...(file.drills as unknown[]),
      { id: "d2", name: "", subject: 3, askName: "A", tellName: "T", items: [] },
      {
        id: "d3",
        name: "N",
        subject: "S",
        askName: "A",
        tellName: "T",
        items: [{ ask: "x", tell: "" }, "y"],
        colour: 1,
      },
      "not a drill",
    ];
    file.users = [...(file.users as unknown[]), { id: "u2", name: "Two", emails: ["not-an-email", "x@y"] }];
    file.courses = [{ id: "c1", name: "C", subject: "S", drillIds: "d1", type: "DRILL" }];
    expect(problemsOf(file)).toEqual([
      { path: "$.users[2].emails[0]", message: "must be an email address (name@domain)" },
      { path: "$.drills[1].name", message: 'must be a non-empty string, got string ""' },
      { path: "$.drills[1].subject", message: "must be a non-empty string, got number 3" },
      { path: "$.drills[1].items", message: "must hold at least one item" },
      {
        path: "$.drills[2].colour",
        message:
          "unknown property (allowed: id, type, name, subject, description, tags, inStore, askName, tellName, items)",
      },
      { path: "$.drills[2].items[0].tell", message: 'must be a non-empty string, got string ""' },
      { path: "$.drills[2].items[1]", message: 'must be an object, got string "y"' },
      { path: "$.drills[3]", message: 'must be an object, got string "not a drill"' },
      { path: "$.courses[0].type", message: 'must be "COURSE" when given, got string "DRILL"' },
      { path: "$.courses[0].drillIds", message: 'must be an array, got string "d1"' },
    ]);
  });

  it("requires the top-level lists and rejects unknown top-level fields", () => {
    expect(problemsOf({ drill: [] })).toEqual([
      {
        path: "$.drill",
        message:
          "unknown property (allowed: $schema, formatVersion, organizations, users, drills, courses, catalogs, groups, objectives, practice)",
      },
      { path: "$.organizations", message: "is required (an array)" },
      { path: "$.users", message: "is required (an array)" },
      { path: "$.drills", message: "is required (an array)" },
    ]);
    expect(problemsOf([])).toEqual([{ path: "$", message: "must be an object, got an array" }]);
    expect(problemsOf({ ...minimal(), formatVersion: 2 })).toEqual([
      { path: "$.formatVersion", message: "must be 1, got number 2" },
    ]);
    expect(problemsOf({ ...minimal(), organizations: [] })).toEqual([
      {
        path: "$.organizations",
        message: "must hold at least one organization (its service account gets tokens)",
      },
      { path: "$.users[0].organizationId", message: 'no organization with ID "org"' },
      { path: "$.users[1].organizationId", message: 'no organization with ID "org"' },
    ]);
  });

  it("reads group objectives and names the record and field of each problem", () => {
    const file = minimal();
    const group = { id: "g1", name: "G", organizationId: "org", memberIds: [], drillableIds: [] };
    const objective = {
      id: "o1",
      groupId: "g1",
      reviewDate: "2030-01-31T00:00:00Z",
      minimumProficiency: 80,
      drillIds: [],
    };
    const read = validateDataFile({ ...file, groups: [group], objectives: [objective] });
    expect(read.ok && read.data.objectives).toEqual([
      { ...objective, type: "ONEOFF", reviewDate: "2030-01-31T00:00:00.000Z" },
    ]);
    expect(
      problemsOf({
        ...file,
        groups: [group],
        objectives: [
          { ...objective, groupId: "g9", type: "SOMETIMES", minimumProficiency: 101, drillIds: ["nope"] },
          { ...objective, reviewDate: "soon", extra: 1 },
        ],
      }),
    ).toEqual([
      { path: "$.objectives[0].type", message: 'must be "ONEOFF" or "PERMANENT" (got "SOMETIMES")' },
      { path: "$.objectives[0].minimumProficiency", message: "must be an integer from 0 to 100 (got 101)" },
      expect.objectContaining({ path: "$.objectives[1].extra" }),
      { path: "$.objectives[1].reviewDate", message: 'must be an ISO 8601 date-time (got "soon")' },
      expect.objectContaining({ path: "$.objectives[1].id" }),
      { path: "$.objectives[0].groupId", message: 'no group with ID "g9"' },
      expect.objectContaining({ path: "$.objectives[0].drillIds[0]" }),
    ]);
  });

  it("reads practice records and seeds the state with them", () => {
    const record = {
      userId: "u1",
      drillId: "d1",
      answerCount: 10,
      correctCount: 7,
      receptive: 80,
      productive: 40,
    };
    const read = validateDataFile({ ...minimal(), practice: [record] });
    expect(read.ok && read.data.practice).toEqual([record]);
    if (!read.ok) return;
    expect(createState(read.data).getRendition("u1", "d1")).toMatchObject({
      answerCount: 10,
      correctCount: 7,
      proficiency: { receptive: 80, productive: 40, overall: 60 },
      highestProficiency: { receptive: 80, productive: 40, overall: 60 },
    });
    expect(createState(read.data).getRendition("sa", "d1")).toMatchObject({ answerCount: 0 });
  });

  it("names the practice record and field of each problem", () => {
    const file = minimal();
    // One user per record, so only the record meant to repeat a pair is a duplicate.
    const learners = Array.from({ length: 9 }, (_, i) => ({ id: `p${i}`, name: `P${i}` }));
    const course = { id: "c1", name: "C", subject: "S", drillIds: ["d1"] };
    const good = { drillId: "d1", answerCount: 4, correctCount: 2, receptive: 50, productive: 20 };
    expect(
      problemsOf({
        ...file,
        users: [...(file.users as unknown[]), ...learners],
        courses: [course],
        practice: [
          { ...good, userId: "nobody" },
          { ...good, userId: "p1", drillId: "missing" },
          { ...good, userId: "p2", drillId: "c1" },
          { ...good, userId: "p3", answerCount: -1, correctCount: 0 },
          { ...good, userId: "p4", correctCount: 5 },
          { ...good, userId: "p5", answerCount: 2.5 },
          { ...good, userId: "p6", receptive: 101, productive: -3 },
          { ...good, userId: "p7", productive: "high" },
          { ...good, userId: "p8" },
          { ...good, userId: "p8" },
        ],
      }),
    ).toEqual([
      { path: "$.practice[3].answerCount", message: "must be an integer of 0 or more (got -1)" },
      {
        path: "$.practice[4].correctCount",
        message: "must not exceed answerCount (5 correct of 4 answers)",
      },
      { path: "$.practice[5].answerCount", message: "must be an integer of 0 or more (got 2.5)" },
      { path: "$.practice[6].receptive", message: "must be a number from 0 to 100 (got 101)" },
      { path: "$.practice[6].productive", message: "must be a number from 0 to 100 (got -3)" },
      { path: "$.practice[7].productive", message: 'must be a number from 0 to 100 (got "high")' },
      { path: "$.practice[0].userId", message: 'no user with ID "nobody"' },
      { path: "$.practice[1].drillId", message: 'no drill with ID "missing"' },
      {
        path: "$.practice[2].drillId",
        message: '"c1" is a course; practice is kept per drill, so give one record per drill of the course',
      },
      {
        path: "$.practice[9]",
        message: 'duplicate practice of user "p8" on drill "d1" (first given at $.practice[8])',
      },
    ]);
    expect(problemsOf({ ...file, practice: [{ userId: "u1", drillId: "d1" }] })).toEqual([
      { path: "$.practice[0].answerCount", message: "is required (an integer of 0 or more)" },
      { path: "$.practice[0].correctCount", message: "is required (an integer of 0 or more)" },
      { path: "$.practice[0].receptive", message: "is required (a number from 0 to 100)" },
      { path: "$.practice[0].productive", message: "is required (a number from 0 to 100)" },
    ]);
  });

  it("catches duplicate IDs, repeated list entries and ambiguous token subjects", () => {
    const file = minimal();
    file.users = [
      ...(file.users as unknown[]),
      { id: "u1", name: "Again" },
      { id: "u3", name: "Three", emails: ["one@example.test"], thirdPartyIds: ["u1"] },
    ];
    file.courses = [{ id: "d1", name: "C", subject: "S", drillIds: [] }];
    file.catalogs = [
      { id: "k", name: "K", drillableIds: ["d1", "d1"], userIds: [] },
      { id: "k", name: "K2", drillableIds: [], userIds: [] },
    ];
    expect(problemsOf(file)).toEqual([
      { path: "$.catalogs[0].drillableIds[1]", message: 'repeats "d1"' },
      { path: "$.users[2].id", message: 'duplicate user ID "u1" (first used at $.users[1])' },
      { path: "$.courses[0].id", message: 'duplicate drill or course ID "d1" (first used at $.drills[0])' },
      { path: "$.catalogs[1].id", message: 'duplicate catalog ID "k" (first used at $.catalogs[0])' },
      {
        path: "$.users[3].emails[0]",
        message:
          '"one@example.test" already names the user at $.users[1]; token subjects must be unambiguous',
      },
      {
        path: "$.users[3].thirdPartyIds[0]",
        message: '"u1" already names the user at $.users[1]; token subjects must be unambiguous',
      },
    ]);
  });

  it("checks every reference", () => {
    const file = minimal();
    file.organizations = [{ id: "org", name: "Org", serviceAccountId: "u9" }];
    file.users = [...(file.users as unknown[]), { id: "u2", name: "Two", organizationId: "org-x" }];
    file.courses = [
      { id: "c1", name: "C", subject: "S", drillIds: ["d1", "nope"] },
      { id: "c2", name: "C2", subject: "S", drillIds: ["c1"] },
    ];
    file.catalogs = [{ id: "k", name: "K", drillableIds: ["c2", "gone"], userIds: ["u1", "ghost"] }];
    file.groups = [
      { id: "g", name: "G", organizationId: "org-y", memberIds: ["ghost"], drillableIds: ["gone"] },
    ];
    expect(problemsOf(file)).toEqual([
      { path: "$.organizations[0].serviceAccountId", message: 'no user with ID "u9"' },
      { path: "$.users[2].organizationId", message: 'no organization with ID "org-x"' },
      { path: "$.courses[0].drillIds[1]", message: 'no drill with ID "nope"' },
      { path: "$.courses[1].drillIds[0]", message: '"c1" is a course; a course holds drills only' },
      { path: "$.catalogs[0].drillableIds[1]", message: 'no drill or course with ID "gone"' },
      { path: "$.catalogs[0].userIds[1]", message: 'no user with ID "ghost"' },
      { path: "$.groups[0].organizationId", message: 'no organization with ID "org-y"' },
      { path: "$.groups[0].drillableIds[0]", message: 'no drill or course with ID "gone"' },
      { path: "$.groups[0].memberIds[0]", message: 'no user with ID "ghost"' },
    ]);
  });

  it("checks the staff of organizations and groups, naming the record and the field", () => {
    const file = minimal();
    file.organizations = [
      {
        id: "org",
        name: "Org",
        serviceAccountId: "sa",
        staff: [
          { userId: "u1", permission: "OWNER" },
          { userId: "ghost", permission: "VIEW" },
        ],
      },
    ];
    file.groups = [
      {
        id: "g",
        name: "G",
        description: 7,
        organizationId: "org",
        memberIds: [],
        drillableIds: [],
        staff: [
          { userId: "u1", permission: "MANAGE" },
          { userId: "u1", permission: "VIEW", since: "today" },
        ],
      },
    ];
    expect(problemsOf(file)).toEqual([
      { path: "$.organizations[0].staff[0].permission", message: 'must be "MANAGE" or "VIEW" (got "OWNER")' },
      { path: "$.groups[0].description", message: "must be a string, got number 7" },
      { path: "$.groups[0].staff[1].since", message: "unknown property (allowed: userId, permission)" },
      { path: "$.groups[0].staff[1].userId", message: 'user "u1" is listed twice' },
      { path: "$.organizations[0].staff[1].userId", message: 'no user with ID "ghost"' },
    ]);
  });

  it("starts a state whose groups keep their staff and description", () => {
    const file = minimal();
    file.organizations = [
      { id: "org", name: "Org", serviceAccountId: "sa", staff: [{ userId: "u1", permission: "VIEW" }] },
    ];
    file.groups = [
      {
        id: "g",
        name: "G",
        description: "Evening class",
        organizationId: "org",
        memberIds: ["u1"],
        drillableIds: ["d1"],
        staff: [{ userId: "u1", permission: "MANAGE" }],
      },
    ];
    const result = validateDataFile(file);
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const state = createState(result.data);
    expect(state.org.groupPermission("u1", "g")).toBe("MANAGE");
    expect(state.org.groupPermission("sa", "g")).toBe("MANAGE");
    expect(state.snapshot().groups).toEqual([
      { ...(file.groups as object[])[0], staff: [{ userId: "u1", permission: "MANAGE" }] },
    ]);
    expect(state.snapshot().organizations[0]).toMatchObject({
      staff: [{ userId: "u1", permission: "VIEW" }],
    });
  });

  it("requires the service account to belong to its organization", () => {
    const file = minimal();
    file.users = [{ id: "sa", name: "Service" }];
    expect(problemsOf(file)).toEqual([
      {
        path: "$.organizations[0].serviceAccountId",
        message: 'the service account user "sa" must have organizationId "org"',
      },
    ]);
  });

  it("quotes property names that are not identifiers in paths", () => {
    const file = { ...minimal(), "my field": 1 };
    expect(problemsOf(file)[0]?.path).toBe('$["my field"]');
  });
});

describe("service account public keys", () => {
  const withKey = (publicKeyPem: unknown) => {
    const file = minimal();
    file.organizations = [
      { id: "org", name: "Org", serviceAccountId: "sa", serviceAccountKey: { keyId: "k1", publicKeyPem } },
    ];
    return file;
  };

  it("accepts an RSA 2048 SPKI PEM key", () => {
    const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    const result = validateDataFile(withKey(pem));
    expect(result.ok && result.data.organizations[0]?.serviceAccountKey).toEqual({
      keyId: "k1",
      publicKeyPem: pem,
    });
  });

  it("rejects short RSA keys, other key types, other PEM blocks and garbage", () => {
    const short = generateKeyPairSync("rsa", { modulusLength: 1024 }).publicKey.export({
      type: "spki",
      format: "pem",
    });
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" }).publicKey.export({
      type: "spki",
      format: "pem",
    });
    const pkcs1 = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey.export({
      type: "pkcs1",
      format: "pem",
    });
    const path = "$.organizations[0].serviceAccountKey.publicKeyPem";
    expect(problemsOf(withKey(short.toString()))).toEqual([
      { path, message: "must be an RSA key of at least 2048 bits, got 1024" },
    ]);
    expect(problemsOf(withKey(ec.toString()))).toEqual([
      { path, message: "must be an RSA key (RS256 signs assertions), got ec" },
    ]);
    expect(problemsOf(withKey(pkcs1.toString()))[0]?.message).toContain("-----BEGIN PUBLIC KEY-----");
    expect(problemsOf(withKey("-----BEGIN PUBLIC KEY-----\nnot base64!\n-----END PUBLIC KEY-----"))).toEqual([
      { path, message: "is not a readable PEM public key" },
    ]);
    expect(problemsOf(withKey(7))).toEqual([{ path, message: "must be a non-empty string, got number 7" }]);
  });
});

describe("parseDataFile and readDataFile", () => {
  const dir = scratchDirForAll("sandbox-data-");

  it("throws a DataFileError with all problems and names the file", async () => {
    const file = join(dir(), "broken.json");
    const broken = minimal();
    broken.drills = [
      { id: "d1", name: "N", subject: "S", askName: "A", tellName: "T", items: [{ ask: "x", tell: "" }] },
    ];
    broken.catalogs = [{ id: "k", name: "K", drillableIds: [], userIds: ["nobody"] }];
    await writeFile(file, JSON.stringify(broken));
    const error = await readDataFile(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFileError);
    if (!(error instanceof DataFileError)) return;
    expect(error.code).toBe("ERR_SANDBOX_DATA_FILE_INVALID");
    expect(error.problems.map((p) => p.path)).toEqual([
      "$.drills[0].items[0].tell",
      "$.catalogs[0].userIds[0]",
    ]);
    expect(error.message).toBe(
      `data file ${file} has 2 problems:\n` +
        '  $.drills[0].items[0].tell: must be a non-empty string, got string ""\n' +
        '  $.catalogs[0].userIds[0]: no user with ID "nobody"',
    );
  });

  it("reports invalid JSON at the root", () => {
    const error = (() => {
      try {
        parseDataFile("{ nope", "x.json");
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(DataFileError);
    expect((error as DataFileError).problems[0]?.path).toBe("$");
    expect((error as DataFileError).problems[0]?.message).toMatch(/^is not valid JSON: /);
  });

  it("round-trips a snapshot of the default state", async () => {
    const { createDefaultDataset } = await import("../../scripts/dataset/default-dataset.js");
    const data = createDefaultDataset();
    const reparsed = parseDataFile(JSON.stringify(createState(data).snapshot()));
    // Practice is kept per user and drill, so it may come back in another order; all of it comes back.
    const { practice, ...rest } = reparsed;
    const { practice: given = [], ...givenRest } = data;
    expect(rest).toEqual(givenRest);
    expect(given.length).toBeGreaterThan(0);
    expect(practice).toHaveLength(given.length);
    expect(practice).toEqual(expect.arrayContaining([...given]));
    expect(JSON.parse(await readFile(examplePath, "utf8"))).toHaveProperty("formatVersion", 1);
  });
});
