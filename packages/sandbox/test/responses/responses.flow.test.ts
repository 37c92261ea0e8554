import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { withScratchDir } from "@drill-practice/tooling/scratch";
import { describe, expect, it } from "vitest";
import { ResponseRulesError, type ResponseRulesFile } from "../../src/index.js";
import { client, open, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

const DRILL = { id: "d-1", tags: ["spanish", "animals"] };
const TEST_DEFINITION = { id: "t-7", name: "Capitals quiz", questions: 10 };

/** Rules for a not-simulated 2.1 operation (its answer is not typed) and a 2.0 test operation. */
const RULES: ResponseRulesFile = {
  responses: [
    { operationId: "getDrillTags_v2_1", when: { path: { drill: DRILL.id } }, status: 200, body: DRILL.tags },
    {
      operationId: "getDrillTags_v2_1",
      status: 404,
      body: { ID: "drill_not_found", id: "drill_not_found", description: "No such drill" },
    },
    {
      operationId: "getTest_v2_0",
      status: 200,
      headers: { "x-rule": "test" },
      body: [TEST_DEFINITION],
    },
  ],
};

/** Captures the thrown error so its fields can be asserted. */
async function refusal(run: () => unknown): Promise<ResponseRulesError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof ResponseRulesError) return error;
    throw error;
  }
  throw new Error("expected a ResponseRulesError");
}

describe("programmable responses", () => {
  it("answer not-simulated operations with the first matching rule, after authentication", async () => {
    const lines: string[] = [];
    const sandbox = await start({ responses: RULES, onRequest: (line) => lines.push(line) });
    const api = client(sandbox, await tokenFor(sandbox));

    const tags = await api("GET", `/api/2.1/drill/${DRILL.id}/tags`);
    expect(tags).toMatchObject({ status: 200, body: DRILL.tags });
    // The first rule's condition does not hold for another drill: the second rule answers.
    expect(await api("GET", "/api/2.1/drill/d-2/tags")).toMatchObject({
      status: 404,
      body: { id: "drill_not_found", description: "No such drill" },
    });
    const test = await api("GET", `/api/2/test/${TEST_DEFINITION.id}`);
    expect(test).toMatchObject({ status: 200, body: [TEST_DEFINITION] });
    expect(test.headers.get("x-rule")).toBe("test");
    // An operation without a rule still answers as before.
    expect((await api("GET", "/api/2.1/users")).body).toMatchObject({ ID: "not_simulated" });

    // No token, no rule: authentication comes first.
    expect((await client(sandbox, undefined)("GET", `/api/2.1/drill/${DRILL.id}/tags`)).status).toBe(401);
    // A query parameter the operation does not define is refused before any rule answers.
    const invalid = await api("GET", `/api/2.1/drill/${DRILL.id}/tags?nonsense=1`);
    expect(invalid).toMatchObject({ status: 400, body: { ID: "invalid_request", parameter: "nonsense" } });

    const ruled = lines.filter((line) => line.includes("answered by response rule"));
    expect(ruled.map((line) => line.split(" ").slice(0, 4).join(" "))).toEqual([
      `GET /api/2.1/drill/${DRILL.id}/tags 200 getDrillTags_v2_1`,
      "GET /api/2.1/drill/d-2/tags 404 getDrillTags_v2_1",
      `GET /api/2/test/${TEST_DEFINITION.id} 200 getTest_v2_0`,
    ]);
    expect(ruled.map((line) => /rule (\d+)/.exec(line)?.[1])).toEqual(["0", "1", "2"]);
  });

  it("override a simulated operation where the condition holds, only there", async () => {
    const sandbox = await start({
      responses: [
        {
          operationId: "searchStore_v2_0",
          when: { query: { query: "nothing" } },
          status: 200,
          body: { total: 0, drills: [] },
        },
      ],
    });
    const api = client(sandbox, await tokenFor(sandbox));
    expect((await api("GET", "/api/2/store?query=nothing")).body).toEqual({ total: 0, drills: [] });
    // Where the condition does not hold the simulation answers: the same page as the 2.1 search.
    const word = SMALL_DATA.drills[0]?.name.split(" ")[0] ?? "";
    const v20 = await api("GET", `/api/2/store?query=${encodeURIComponent(word)}`);
    expect((v20.body as { total: number }).total).toBeGreaterThan(0);
    expect(v20.body).toEqual((await api("GET", `/api/2.1/store?query=${encodeURIComponent(word)}`)).body);
  });

  it("refuse a rule whose body breaks the 2.0 store search schema, with its path, applying nothing", async () => {
    const bad = {
      responses: [
        { operationId: "getTest_v2_0", status: 200, body: [TEST_DEFINITION] },
        { operationId: "searchStore_v2_0", status: 200, body: { total: "many", drills: [] } },
      ],
    };
    const error = await refusal(() => open({ data: SMALL_DATA, responses: bad }));
    expect(error.code).toBe("ERR_SANDBOX_RESPONSES_INVALID");
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]?.path).toBe("$.responses[1].body");
    expect(error.problems[0]?.message).toContain("searchStore_v2_0");
    expect(error.problems[0]?.message).toContain("total");

    // On a running sandbox the refused set leaves the previous one in place.
    const sandbox = await start({ responses: RULES });
    const refused = await refusal(() => sandbox.setResponses(bad));
    expect(refused.problems.map((p) => p.path)).toEqual(["$.responses[1].body"]);
    expect(sandbox.responses()).toEqual(RULES.responses);
  });

  it("name every broken rule with its path and the rule it breaks", async () => {
    const sandbox = await start();
    const error = await refusal(() =>
      sandbox.setResponses({
        responses: [
          { operationId: "getGroupz_v2_1", status: 200 },
          { operationId: "getDrillTags_v2_1", when: { path: { grp: "g-1" } }, status: 200, body: [] },
          { operationId: "getDrillTags_v2_1", status: 99, body: [] },
          { operationId: "getDrillTags_v2_1", status: 200, headers: { "content-length": "3" }, body: [] },
        ],
      } as unknown as ResponseRulesFile),
    );
    expect(error.problems.map((p) => p.path)).toEqual([
      "$.responses[0].operationId",
      "$.responses[1].when.path.grp",
      "$.responses[2].status",
      "$.responses[3].headers.content-length",
    ]);
    expect(error.problems[1]?.message).toContain('no path parameter "grp"');
    expect(sandbox.responses()).toEqual([]);
  });

  it("are steered over the admin API", async () => {
    const sandbox = await start();
    const admin = client(sandbox, undefined);
    const api = client(sandbox, await tokenFor(sandbox));
    expect(await admin("PUT", "/__sandbox/responses", { json: RULES })).toMatchObject({
      status: 200,
      body: { count: 3 },
    });
    expect((await admin("GET", "/__sandbox/responses")).body).toEqual(RULES);
    expect((await api("GET", `/api/2/test/${TEST_DEFINITION.id}`)).body).toEqual([TEST_DEFINITION]);

    const refused = await admin("PUT", "/__sandbox/responses", {
      json: { responses: [{ operationId: "searchStore_v2_0", status: 200, body: { drills: [] } }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      ID: "invalid_request",
      problems: [{ path: "$.responses[0].body" }],
    });
    expect((await admin("GET", "/__sandbox/responses")).body).toEqual(RULES);

    expect((await admin("DELETE", "/__sandbox/responses")).status).toBe(204);
    expect((await api("GET", `/api/2/test/${TEST_DEFINITION.id}`)).body).toMatchObject({
      ID: "not_simulated",
    });
  });

  it("load from a file with drill-sandbox --responses", async () => {
    const { execFile } = await import("node:child_process");
    const { promisify } = await import("node:util");
    const { fileURLToPath } = await import("node:url");
    await withScratchDir("drill-sandbox-responses-", async (dir) => {
      const file = join(dir, "responses.json");
      await writeFile(
        file,
        JSON.stringify({
          responses: [{ operationId: "searchStore_v2_0", status: 200, body: { total: -1, drills: [] } }],
        }),
      );
      const cli = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));
      const result = await promisify(execFile)(process.execPath, [
        "--import",
        "tsx",
        cli,
        "--port",
        "0",
        "--responses",
        file,
      ]).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`responses file ${file}`);
      expect(result.stderr).toContain("$.responses[0].body");
    });
  });
});
