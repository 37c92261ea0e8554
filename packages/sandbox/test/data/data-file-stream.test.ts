import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import type { DataFileValidation } from "../../src/data/data-file.js";
import { validateDataFile } from "../../src/data/data-file.js";
import { readDataFile } from "../../src/data/data-file-read.js";
import { streamDataFile } from "../../src/data/data-file-stream.js";
import { loadDataset } from "../../src/data/dataset-loader.js";
import { DataFileError, DataFileReadError } from "../../src/errors.js";

const dir = scratchDirForAll("sandbox-stream-");

const dataDir = fileURLToPath(new URL("../../data/", import.meta.url));

async function fileWith(name: string, text: string): Promise<string> {
  const path = join(dir(), name);
  await writeFile(path, text);
  return path;
}

/** What checking the whole parsed text gives: the reference for every streamed read. */
function parsedWhole(text: string): DataFileValidation {
  return validateDataFile(JSON.parse(text));
}

/** `readDataFile`'s outcome in the form of a validation, so both can be compared. */
async function readOutcome(path: string): Promise<DataFileValidation> {
  try {
    return { ok: true, data: await readDataFile(path) };
  } catch (error) {
    if (error instanceof DataFileError) return { ok: false, problems: error.problems };
    throw error;
  }
}

function drill(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `Drill ${id} [with] {brackets} and "quotes"`,
    subject: "Ünïcode ねこ 🐈",
    askName: "Ask",
    tellName: "Tell",
    items: [
      { ask: "a\\b", tell: "c\n" },
      { ask: "ß", tell: "😀" },
    ],
    ...extra,
  };
}

describe("reading a data file record by record", () => {
  it("gives the data of the parsed file for every chunk size", async () => {
    // One-byte reads of the 300-drill default file would take long; the example has every kind of record.
    const files = { "example.json": [1, 7, 64, 4096], "default.json": [4093] };
    for (const [name, sizes] of Object.entries(files)) {
      const path = join(dataDir, name);
      const expected = parsedWhole(await readFile(path, "utf8"));
      expect(expected.ok).toBe(true);
      for (const chunkBytes of sizes) {
        expect(await streamDataFile(path, chunkBytes), `${name} in ${chunkBytes}-byte chunks`).toEqual(
          expected,
        );
      }
    }
  });

  it("reports the parsed file's problems in the same order, whatever order the lists come in", async () => {
    // Lists in reverse order, unknown names between them (one integer-like, which Object.keys puts
    // first), invalid records in several lists, a duplicate across lists, a reference to nothing.
    const text = [
      "{",
      '"groups": [{"id": "g", "name": "G", "organizationId": "org-none", "memberIds": ["u1"], "drillableIds": []}],',
      `"courses": [{"id": "d1", "name": "C", "subject": "S", "drillIds": ["d1", "missing"]}],`,
      '"my field": true, "__proto__": {}, "7": 0, "$schema": 3,',
      `"drills": [${JSON.stringify(drill("d1"))}, "not a drill", ${JSON.stringify(drill("d2", { items: [{ ask: "x", tell: "" }], colour: 1 }))}],`,
      '"formatVersion": 2,',
      '"organizations": [{"id": "org", "name": "Org", "serviceAccountId": "sa"}]',
      "}",
    ].join("\n");
    const expected = parsedWhole(text);
    expect(expected.ok).toBe(false);
    if (expected.ok) return;
    // The problems named in the comment above are all there (and `users` is missing).
    expect(expected.problems.map((p) => p.path)).toEqual(
      expect.arrayContaining([
        '$["7"]',
        '$["my field"]',
        "$.__proto__",
        "$.$schema",
        "$.formatVersion",
        "$.users",
        "$.drills[1]",
        "$.drills[2].colour",
        "$.drills[2].items[0].tell",
        "$.courses[0].id",
        "$.courses[0].drillIds[1]",
        "$.groups[0].organizationId",
      ]),
    );
    const path = await fileWith("unordered.json", text);
    for (const chunkBytes of [1, 13, 1 << 20]) {
      expect(await streamDataFile(path, chunkBytes), `${chunkBytes}-byte chunks`).toEqual(expected);
    }
    expect(await readOutcome(path)).toEqual(expected);
  });

  it("checks a file larger than one read like the parsed file", async () => {
    const drills = Array.from({ length: 6000 }, (_, i) =>
      // Every 997th drill has an empty answer, so problems come from records on both sides of reads.
      drill(`d${i}`, i % 997 === 5 ? { items: [{ ask: "q", tell: "" }] } : {}),
    );
    const text = JSON.stringify({
      organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
      users: [{ id: "sa", name: "Service", organizationId: "org" }],
      drills,
    });
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20);
    const expected = parsedWhole(text);
    expect(expected.ok ? [] : expected.problems.map((p) => p.path)).toEqual(
      drills.flatMap((_, i) => (i % 997 === 5 ? [`$.drills[${i}].items[0].tell`] : [])),
    );
    expect(await readOutcome(await fileWith("large.json", text))).toEqual(expected);
  });

  it("reports malformed JSON with JSON.parse's own message, as a whole-file read did", async () => {
    const valid = JSON.stringify({ organizations: [], users: [], drills: [drill("d1"), drill("d2")] });
    // A missing comma between two drills, deep in the list.
    const text = valid.replace('},{"id":"d2"', '} {"id":"d2"');
    expect(text).not.toBe(valid);
    const reason = (() => {
      try {
        JSON.parse(text);
      } catch (error) {
        return (error as Error).message;
      }
      return "parsed";
    })();
    const path = await fileWith("malformed.json", text);
    const error = await readDataFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFileError);
    expect((error as DataFileError).code).toBe("ERR_SANDBOX_DATA_FILE_INVALID");
    expect((error as DataFileError).problems).toEqual([
      { path: "$", message: `is not valid JSON: ${reason}` },
    ]);
    expect((error as DataFileError).message).toContain(path);
  });

  it("keeps the last of repeated top-level names and reads a top level that is not an object, as JSON.parse does", async () => {
    const minimal = {
      organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
      users: [{ id: "sa", name: "Service", organizationId: "org" }],
    };
    const body = JSON.stringify({ ...minimal, drills: [drill("d1", { name: "" })] });
    const repeated = `{"drills": [${JSON.stringify(drill("first"))}], ${body.slice(1)}`;
    expect(await readOutcome(await fileWith("repeated.json", repeated))).toEqual(parsedWhole(repeated));
    expect(parsedWhole(repeated)).toMatchObject({ problems: [{ path: "$.drills[0].name" }] });

    const list = JSON.stringify([minimal]);
    expect(await readOutcome(await fileWith("list.json", list))).toEqual(parsedWhole(list));
  });

  it("passes on file system errors for the loader to name", async () => {
    await expect(loadDataset({ dataFile: dir() })).rejects.toThrow(
      new DataFileReadError(`data file ${dir()}: is a directory`),
    );
    const missing = join(dir(), "missing.json");
    await expect(loadDataset({ dataFile: missing })).rejects.toThrow(
      new DataFileReadError(`data file ${missing}: not found`),
    );
  });
});
