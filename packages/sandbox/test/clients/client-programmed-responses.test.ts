/**
 * Programmed responses of the sandbox (`responsesFile`), read through the client: a not-simulated 2.1
 * group operation and a 2.0 test operation answer what the rules say, for an authenticated client.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createDrillClient } from "@drill-practice/client";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, startSandbox } from "../../src/index.js";
import { tokenFor } from "../support/helpers.js";

const GROUP = { id: "group-9", name: "Year 9 Spanish", memberCount: 24 };
const TEST = { id: "test-3", name: "Capitals quiz", questionCount: 10 };
const RESPONSES = {
  responses: [
    { operationId: "getGroup_v2_1", when: { path: { group: GROUP.id } }, status: 200, body: GROUP },
    { operationId: "getTest_v2_0", when: { path: { test_id: TEST.id } }, status: 200, body: [TEST] },
  ],
};

const dir = scratchDirForAll("drill-client-responses-");
let sandbox: Sandbox;
let token: string;

beforeAll(async () => {
  const file = join(dir(), "responses.json");
  await writeFile(file, JSON.stringify(RESPONSES));
  sandbox = await startSandbox({ responsesFile: file, validateResponses: true });
  token = await tokenFor(Object.assign(sandbox, { fetch: globalThis.fetch }));
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
});

describe("sandbox programmed responses through the client", () => {
  it("answers a not-simulated 2.1 group operation and a 2.0 test operation from the rules", async () => {
    const client = createDrillClient({
      baseUrl: sandbox.url,
      headers: { Authorization: `Bearer ${token}` },
      retry: false,
    });
    const group = await client.GET("/api/2.1/group/{group}", { params: { path: { group: GROUP.id } } });
    expect(group.response.status).toBe(200);
    // getGroup_v2_1 answers an observed Group_v2_1 (an object), so the rule answers one.
    expect(group.data).toEqual(GROUP);
    expect(group.data?.name).toBe(GROUP.name);
    const test = await client.GET("/api/2/test/{test_id}", { params: { path: { test_id: TEST.id } } });
    expect(test.response.status).toBe(200);
    expect(test.data).toEqual([TEST]);
    // Where no rule's condition holds, the operation is still not simulated.
    const other = await client.GET("/api/2/test/{test_id}", { params: { path: { test_id: "test-4" } } });
    expect(other.response.status).toBe(501);
    expect(other.error).toMatchObject({ ID: "not_simulated", operationId: "getTest_v2_0" });
  });

  it("still needs a token before a rule answers", async () => {
    const anonymous = createDrillClient({ baseUrl: sandbox.url, retry: false });
    const group = await anonymous.GET("/api/2.1/group/{group}", { params: { path: { group: GROUP.id } } });
    expect(group.response.status).toBe(401);
    expect(group.data).toBeUndefined();
  });
});
