/**
 * What the Try it worker's copy of the sandbox leaves out (`worker-code.ts`): reader-only text, and
 * nothing the sandbox reads while it answers. That the worker still answers every operation is
 * checked in Chromium (`try-it.test.ts`); here, what the cut keeps and what it drops.
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { SIMULATED_OPERATIONS } from "@drill-practice/sandbox";
import { beforeAll, describe, expect, it } from "vitest";
import {
  descriptionForSandbox,
  withoutBehaviourText,
  withoutSchemaPaths,
} from "../src/try-it/worker-code.ts";
import { assertSiteBuilt, distDir } from "./helpers/site.ts";

type Json = Record<string, unknown>;

describe("the worker's sandbox code", () => {
  it("empties written-out behaviour sentences (and constants only they name), keeps computed ones and all else", () => {
    const code = [
      'const SHARED = "deletes " + "it", LABEL = "kept";',
      "const family = { operations: {",
      '  a: { behaviour: "lists `groups`", handle: list },',
      "  e: { behaviour: SHARED, handle: () => LABEL }, f: { behaviour: SHARED, also: LABEL },",
      "  g: { behaviour: LABEL },",
      '  b: { behaviour: "as `a`, " + "in the 2.0 shape", handle: (x) => "behaviour: kept" },',
      "  c: { behaviour: `answers $" + "{kind}`, handle: other },",
      '  d: { "behaviour": `plain`, note: "behaviour" },',
      "} };",
    ].join("\n");
    expect(withoutBehaviourText(code)).toBe(
      [
        'const SHARED = "", LABEL = "kept";',
        "const family = { operations: {",
        '  a: { behaviour: "", handle: list },',
        "  e: { behaviour: SHARED, handle: () => LABEL }, f: { behaviour: SHARED, also: LABEL },",
        "  g: { behaviour: LABEL },",
        '  b: { behaviour: "", handle: (x) => "behaviour: kept" },',
        "  c: { behaviour: `answers $" + "{kind}`, handle: other },",
        '  d: { "behaviour": "", note: "behaviour" },',
        "} };",
      ].join("\n"),
    );
  });

  it("leaves Ajv's schemaPath out of validator errors, keeping what the messages use", () => {
    const error =
      'const err0 = { instancePath: instancePath + "/a", schemaPath: "sandbox:openapi#/x/\\"q\\"/type", keyword: "type", params: { type: "string" }, message: "must be string" };';
    expect(withoutSchemaPaths(error)).toBe(
      'const err0 = { instancePath: instancePath + "/a", keyword: "type", params: { type: "string" }, message: "must be string" };',
    );
  });

  it("the sandbox's own description, cut: no tags; each operation keeps its not-shown list and error identifiers", async () => {
    const packaged = join(
      dirname(createRequire(import.meta.url).resolve("@drill-practice/sandbox/package.json")),
      "openapi",
      "openapi.json",
    );
    const doc = JSON.parse(await readFile(packaged, "utf8")) as Json;
    const cut = descriptionForSandbox(doc);
    expect(cut.tags).toBeUndefined();
    expect(cut["x-tagGroups"]).toBeUndefined();
    expect(cut.security).toEqual(doc.security);
    const paths = doc.paths as Record<string, Record<string, Json>>;
    const cutPaths = cut.paths as Record<string, Record<string, Json>>;
    let operations = 0;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (typeof operation.operationId !== "string") continue;
        operations++;
        const kept = cutPaths[path]?.[method] as Json;
        expect(kept.tags, operation.operationId).toBeUndefined();
        expect(kept["x-undocumented"], operation.operationId).toEqual(operation["x-undocumented"]);
        expect((kept["x-errors"] as Json | undefined)?.ids).toEqual(
          (operation["x-errors"] as Json | undefined)?.ids,
        );
        expect(kept.responses, operation.operationId).toEqual(operation.responses);
        expect(kept.parameters, operation.operationId).toEqual(operation.parameters);
      }
    }
    expect(operations).toBeGreaterThan(300);
  });
});

describe("the built worker", () => {
  beforeAll(assertSiteBuilt);

  it("carries none of the resource families' behaviour sentences, which the page's notes show", async () => {
    const assets = join(distDir, "assets");
    const chunks = (await readdir(assets)).filter((file) => /^try-it-sandbox.*\.js$/.test(file));
    const code = (await Promise.all(chunks.map((file) => readFile(join(assets, file), "utf8")))).join("\n");
    // Long sentences only: a short one could occur in the code for another reason. The token
    // endpoint's and its discovery document's are the OAuth routes' own table, not a family's: kept.
    const oauth = new Set(["exchangeToken", "getAuthorizationServerMetadata"]);
    const sentences = Object.entries(SIMULATED_OPERATIONS as Record<string, string>)
      .filter(([id, sentence]) => !oauth.has(id) && sentence.length > 60)
      .map(([, sentence]) => sentence);
    expect(sentences.length).toBeGreaterThan(100);
    expect(sentences.filter((sentence) => code.includes(sentence))).toEqual([]);
    // The operations still answered are the same: their names are all in the worker.
    const missing = Object.keys(SIMULATED_OPERATIONS).filter((id) => !code.includes(id));
    expect(missing).toEqual([]);
  });
});
