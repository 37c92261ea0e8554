/**
 * The check as `pnpm test` and `pnpm spec:diff` run it: a breaking edit fails it with a message
 * naming the pointer and the changeset that is missing, the right changeset lets it pass, and on
 * this repository every change since the released baseline is covered by a pending changeset.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { breakingBumps, type Changeset, missingChangesets, readChangesets } from "./changesets.ts";
import { practiceApi } from "./fixtures/practice-api.ts";
import { runSpecDiff, specPackages } from "./run.ts";
import { bundlesAt } from "./since.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const tsx = join(root, "node_modules/.bin/tsx");

const scratch = scratchDirForAll("spec-diff-");

type Doc = ReturnType<typeof practiceApi>;

/**
 * A baseline and a current description (both versions the fixture), the second with one edit;
 * `both` changes the fixture on both sides first.
 */
async function fixtureRepo(name: string, edit: (doc: Doc) => void, both: (doc: Doc) => void = () => {}) {
  const dir = join(scratch(), name);
  const fixture = () => {
    const doc = practiceApi();
    both(doc);
    return doc;
  };
  const after = fixture();
  edit(after);
  for (const [sub, doc] of [
    ["baseline", fixture()],
    ["current", after],
  ] as const) {
    await mkdir(join(dir, sub), { recursive: true });
    for (const bundle of ["openapi-v2.1.1.json", "openapi-v2.1.json", "openapi-v2.0.json"])
      await writeFile(
        join(dir, sub, bundle),
        JSON.stringify(bundle === "openapi-v2.1.json" ? doc : practiceApi()),
      );
  }
  await mkdir(join(dir, "changesets"), { recursive: true });
  return dir;
}

async function specDiff(
  dir: string,
  args: readonly string[] = ["--baseline", join(dir, "baseline")],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const options = ["--current", join(dir, "current"), "--changesets", join(dir, "changesets")];
  try {
    const { stdout, stderr } = await run(
      tsx,
      ["scripts/spec-diff.ts", ...args, ...options, "--consumers", "never"],
      { cwd: root },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe("pnpm spec:diff on a deliberately breaking edit of a fixture", () => {
  const pointer =
    "/paths/~1api~1answer~1{reference}/put/requestBody/content/application~1x-www-form-urlencoded/schema/properties/level";
  let dir: string;
  beforeAll(async () => {
    dir = await fixtureRepo("removed-field", (doc) => {
      delete (doc.components.schemas.Answer.properties as Record<string, unknown>).level;
    });
  });

  it("fails without a changeset, naming the pointer, the packages and the bump", async () => {
    const result = await specDiff(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `API 2.1: ${pointer} (PUT /api/answer/{reference} (storeAnswer)): removed field \`level\``,
    );
    expect(result.stderr).toContain(
      'missing changeset: 1 breaking change(s) need a changeset with "@drill-practice/client": minor',
    );
    expect(result.stderr).toContain('"@drill-practice/sandbox": minor');
    expect(result.stderr).toContain("whose text names it as `storeAnswer` or `PUT /api/answer/{reference}`");
    // The changelog itself, on stdout.
    expect(result.stdout).toContain("### `PUT /api/answer/{reference} (storeAnswer)`\n\n#### Breaking\n\n");
    expect(result.stdout).toContain(
      `- \`${pointer}\`\n  - old \`{"type":"integer","minimum":1}\`, new \`—\``,
    );
  }, 60_000);

  it("still fails with a patch changeset, or a breaking one that does not name the change", async () => {
    await writeFile(
      join(dir, "changesets", "patch.md"),
      '---\n"@drill-practice/client": patch\n---\n\nstoreAnswer no longer takes `level`.\n',
    );
    await writeFile(
      join(dir, "changesets", "unnamed.md"),
      '---\n"@drill-practice/client": minor\n"@drill-practice/sandbox": minor\n---\n\nSome answers changed.\n',
    );
    const result = await specDiff(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`breaking change not named by a changeset: API 2.1: ${pointer}`);
    expect(result.stderr).not.toContain("missing changeset");
  }, 60_000);

  it("passes once a breaking changeset for every package names the change", async () => {
    await writeFile(
      join(dir, "changesets", "named.md"),
      '---\n"@drill-practice/client": minor\n"@drill-practice/sandbox": minor\n---\n\n`storeAnswer` (API 2.1) no longer takes the form field `level`.\n',
    );
    const result = await specDiff(dir);
    expect(result.stderr).toContain(
      "spec:diff: 1 change(s) since the release, 1 breaking; the changesets cover them",
    );
    expect(result.code).toBe(0);
  }, 60_000);

  it("passes a non-breaking edit without a changeset when the client's types are those of the release", async () => {
    const added = await fixtureRepo("added-field", (doc) => {
      (doc.components.schemas.Evaluation.properties as Record<string, unknown>).extra = { type: "string" };
    });
    const result = await specDiff(added);
    expect(result.stdout).toContain("#### Non-breaking");
    expect(result.code).toBe(0);
  }, 60_000);
});

const minorBoth = '---\n"@drill-practice/client": minor\n"@drill-practice/sandbox": minor\n---\n\n';

describe("pnpm spec:diff on a renamed path parameter", () => {
  const rename = (doc: Doc) => {
    const paths = doc.paths as Record<string, unknown>;
    const item = paths["/api/answer/{reference}"] as { parameters: { name: string }[] };
    (item.parameters[0] as { name: string }).name = "answerId";
    paths["/api/answer/{answerId}"] = item;
    delete paths["/api/answer/{reference}"];
  };

  it("fails without its changeset: the key of the generated `paths` type changed", async () => {
    const dir = await fixtureRepo("renamed-parameter", rename);
    const result = await specDiff(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "breaking change not named by a changeset: API 2.1: /paths (/api/answer/{reference} → /api/answer/{answerId}): path template renamed",
    );
    expect(result.stderr).toContain("parameter renamed (`reference` → `answerId`)");
    expect(result.stdout).toContain("### `/api/answer/{reference} → /api/answer/{answerId}`");
  }, 60_000);

  it("passes with a breaking changeset naming the operation", async () => {
    const dir = await fixtureRepo("renamed-parameter-named", rename);
    await writeFile(
      join(dir, "changesets", "renamed.md"),
      `${minorBoth}\`storeAnswer\` is now \`PUT /api/answer/{answerId}\`.\n`,
    );
    const result = await specDiff(dir);
    expect(result.stderr).toContain("2 breaking; the changesets cover them");
    expect(result.code).toBe(0);
  }, 60_000);
});

describe("pnpm spec:diff on a breaking change to a shared schema", () => {
  // A second operation answers with the same `Answer` schema the first one takes.
  const shared = (doc: Doc) => {
    (doc.paths["/api/store"] as Record<string, unknown>).put = {
      operationId: "copyAnswer",
      responses: {
        "200": {
          description: "The copy.",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Answer" } } },
        },
      },
    };
  };
  const removeLevel = (doc: Doc) => {
    delete (doc.components.schemas.Answer.properties as Record<string, unknown>).level;
  };

  it("is covered by one changeset naming the schema, for every operation that uses it", async () => {
    const dir = await fixtureRepo("shared-schema", removeLevel, shared);
    const without = await specDiff(dir);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("(storeAnswer)): removed field `level`");
    expect(without.stderr).toContain("(copyAnswer)): removed field `level`");
    expect(without.stderr).toContain("or `Answer`");
    await writeFile(
      join(dir, "changesets", "schema.md"),
      `${minorBoth}\`Answer\` no longer has \`level\`.\n`,
    );
    const named = await specDiff(dir);
    expect(named.stderr).toContain("2 breaking; the changesets cover them");
    expect(named.code).toBe(0);
  }, 60_000);
});

describe("pnpm spec:diff: help and errors", () => {
  it("--help prints the options, --since among them, and exits 0", async () => {
    const { stdout } = await run(tsx, ["scripts/spec-diff.ts", "--help"], { cwd: root });
    expect(stdout).toMatch(/^usage: pnpm spec:diff \[options\]/);
    expect(stdout).toContain("--since <ref>");
  });

  it("a malformed baseline is one line naming the file", async () => {
    const dir = await fixtureRepo("malformed", () => {});
    const file = join(dir, "baseline", "openapi-v2.0.json");
    await writeFile(file, '{"openapi": "3.1.0",');
    const result = await specDiff(dir);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      expect.stringMatching(
        new RegExp(`^spec:diff: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON \\(`),
      ),
    ]);
  });
});

describe("pnpm spec:diff --since <ref>", () => {
  it("shows only what changed since the commit, not everything since the release", async () => {
    const dir = join(scratch(), "since");
    const atHead = bundlesAt(root, "HEAD", join(dir, "head"));
    await cp(atHead, join(dir, "current"), { recursive: true });
    await mkdir(join(dir, "changesets"));
    const bundle = join(dir, "current", "openapi-v2.0.json");
    const doc = JSON.parse(await readFile(bundle, "utf8"));
    const [route, item] =
      Object.entries(doc.paths as Record<string, Record<string, { summary?: string }>>)[0] ?? [];
    const operation = Object.values(item ?? {}).find(
      (entry) => typeof entry === "object" && entry !== null && "operationId" in entry,
    );
    (operation as { summary: string }).summary = "A summary edited by this test";
    await writeFile(bundle, JSON.stringify(doc));
    const result = await specDiff(dir, ["--since", "HEAD"]);
    expect(result.stdout).toContain("# Changes to the API description since HEAD");
    expect(result.stdout).toContain("0 breaking, 0 non-breaking, 1 documentation only.");
    expect(result.stdout.match(/^### /gm)).toHaveLength(1);
    expect(result.stdout).toContain(String(route));
    expect(result.stderr).toContain("spec:diff: 1 change(s) since HEAD, 0 breaking");
    expect(result.code).toBe(0);
    const unknown = await specDiff(dir, ["--since", "no-such-ref-here"]);
    expect(unknown.stderr.trim()).toBe("spec:diff: --since no-such-ref-here: git knows no such commit");
  }, 180_000);
});

describe("runSpecDiff when the client's generated types differ from the release's", () => {
  it("asks for at least a patch changeset for the client, and is content with one", async () => {
    const dir = await fixtureRepo("types-changed", (doc) => {
      doc.paths["/api/answer/{reference}"].put.summary = "Store the learner's answer";
    });
    await writeFile(
      join(dir, "baseline", "release.json"),
      JSON.stringify({
        packages: { "@drill-practice/client": "0.1.0" },
        generatedTypes: "the types of an older release",
      }),
    );
    const options = {
      root,
      baselineDir: join(dir, "baseline"),
      currentDir: join(dir, "current"),
      changesetDir: join(dir, "changesets"),
      consumers: "never",
    } as const;
    const without = runSpecDiff(options);
    expect(without.typesChanged).toBe(true);
    const v21 = without.versions.find((version) => version.id === "2.1");
    expect(v21?.findings.map((finding) => finding.severity)).toEqual(["documentation"]);
    expect(without.problems).toEqual([
      'missing changeset: the client\'s generated types changed since the release; add at least "@drill-practice/client": patch saying what changed',
    ]);
    await writeFile(
      join(dir, "changesets", "summary.md"),
      '---\n"@drill-practice/client": patch\n---\n\nBetter summary.\n',
    );
    expect(runSpecDiff(options).problems).toEqual([]);
  });
});

describe("missingChangesets", () => {
  const changeset = (releases: Record<string, "patch" | "minor" | "major">, summary: string): Changeset => ({
    file: "x.md",
    releases: new Map(Object.entries(releases)),
    summary,
  });
  const breaking = [{ label: "/paths/~1a/get/responses/200", names: ["getA"] }];

  it("asks for a major from 1.0 on, the minor before", () => {
    expect(breakingBumps("0.1.0")).toEqual(["minor", "major"]);
    expect(breakingBumps("1.4.2")).toEqual(["major"]);
    const minor = [changeset({ "@drill-practice/client": "minor" }, "getA answers less.")];
    expect(
      missingChangesets({
        breaking,
        typesChanged: false,
        packages: [{ name: "@drill-practice/client", version: "0.3.0" }],
        changesets: minor,
      }),
    ).toEqual([]);
    expect(
      missingChangesets({
        breaking,
        typesChanged: false,
        packages: [{ name: "@drill-practice/client", version: "1.0.0" }],
        changesets: minor,
      }),
    ).toEqual([
      'missing changeset: 1 breaking change(s) need a changeset with "@drill-practice/client": major; none of the 1 pending changeset(s) bumps @drill-practice/client that far',
      'breaking change not named by a changeset: /paths/~1a/get/responses/200\n    write a changeset with "@drill-practice/client": major, whose text names it as `getA`',
    ]);
  });

  it("asks for a client changeset when the generated types changed", () => {
    const packages = [{ name: "@drill-practice/client", version: "0.1.0" }];
    expect(missingChangesets({ breaking: [], typesChanged: true, packages, changesets: [] })).toEqual([
      'missing changeset: the client\'s generated types changed since the release; add at least "@drill-practice/client": patch saying what changed',
    ]);
    const patch = [changeset({ "@drill-practice/client": "patch" }, "New field.")];
    expect(missingChangesets({ breaking: [], typesChanged: true, packages, changesets: patch })).toEqual([]);
    expect(missingChangesets({ breaking: [], typesChanged: false, packages, changesets: [] })).toEqual([]);
  });

  it("reads release lines, and a changeset that releases nothing", async () => {
    const dir = join(scratch(), "read-changesets");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "README.md"), "# Changesets\n");
    await writeFile(join(dir, "empty.md"), "---\n---\n\nTooling only.\n");
    await writeFile(
      join(dir, "two.md"),
      "---\n\"@drill-practice/client\": minor\n'@drill-practice/sandbox': patch\n---\n\nText.\n",
    );
    await writeFile(join(dir, "wrong.md"), '---\n"@drill-practice/client": huge\n---\n');
    expect(() => readChangesets(dir)).toThrow(
      /wrong\.md: cannot read the release line "\\"@drill-practice\/client\\": huge"/,
    );
    await rm(join(dir, "wrong.md"));
    expect(readChangesets(dir).map((c) => [c.file, [...c.releases], c.summary])).toEqual([
      ["empty.md", [], "\nTooling only.\n"],
      [
        "two.md",
        [
          ["@drill-practice/client", "minor"],
          ["@drill-practice/sandbox", "patch"],
        ],
        "\nText.\n",
      ],
    ]);
  });

  it("takes a name only as a whole: GET /a is not named by GET /a/{id}", () => {
    const packages = [{ name: "@drill-practice/client", version: "0.1.0" }];
    const change = [{ label: "x", names: ["GET /a"] }];
    const longer = [changeset({ "@drill-practice/client": "minor" }, "`GET /a/{id}` changed.")];
    const exact = [changeset({ "@drill-practice/client": "minor" }, "`GET /a` changed.")];
    expect(
      missingChangesets({ breaking: change, typesChanged: false, packages, changesets: longer }),
    ).toHaveLength(1);
    expect(missingChangesets({ breaking: change, typesChanged: false, packages, changesets: exact })).toEqual(
      [],
    );
  });
});

describe("this repository", () => {
  it("reads every pending changeset and finds the published packages built from the description", () => {
    expect(readChangesets(join(root, ".changeset")).length).toBeGreaterThan(0);
    expect(specPackages(root).map((pkg) => pkg.name)).toEqual([
      "@drill-practice/client",
      "@drill-practice/sandbox",
    ]);
  });

  // Between releases the description moves on from its baseline; what must hold on every commit is
  // that the pending changesets cover each change and the release's consumer code still compiles.
  it("has every change since its released baseline covered by a changeset, and the release's consumer code compiles", () => {
    const report = runSpecDiff({ root, consumers: "always" });
    expect(report.versions.map((version) => version.id)).toEqual(["2.1.1", "2.1", "2.0"]);
    expect(report.compileErrors).toEqual([]);
    expect(report.problems).toEqual([]);
  }, 240_000);
});
