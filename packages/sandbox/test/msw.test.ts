import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InProcessSandbox } from "../src/index.js";
import { createSandbox } from "../src/index.js";
import { sandboxHandlers } from "../src/msw.js";
import { contentFlow } from "./support/content-flow.js";
import { contentFlowV211 } from "./support/content-v211-flow.js";
import { groupsFlow } from "./support/groups-flow.js";
import { groupsFlowV211 } from "./support/groups-v211-flow.js";
import { client, SMALL_DATA, type TestSandbox, tokenFor } from "./support/helpers.js";
import { testsFlow } from "./support/tests-flow.js";

// MSW 2 here (vitest on the host's Node 20); MSW 3 runs on Node 24 in the runtime matrix's MSW case.
let sandbox: InProcessSandbox;
let server: ReturnType<typeof setupServer>;
/** The sandbox as code that knows only its URL sees it: through the global fetch. */
let viaGlobalFetch: TestSandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ data: SMALL_DATA, validateResponses: true });
  server = setupServer(...sandboxHandlers(sandbox));
  server.listen({ onUnhandledRequest: "error" });
  viaGlobalFetch = { ...sandbox, fetch: (input, init) => globalThis.fetch(input, init) };
});
afterAll(() => {
  server.close();
});

describe("sandboxHandlers with MSW's setupServer", () => {
  it("serves token exchange, search and practice to code calling the global fetch", async () => {
    const token = await tokenFor(viaGlobalFetch, "u-ana");
    const api = client(viaGlobalFetch, token);
    const search = await api("GET", "/api/2.1/store?query=spanish");
    expect(search.status).toBe(200);
    expect((search.body as { drills: { id: string }[] }).drills.map((d) => d.id).sort()).toEqual([
      "course-spanish",
      "es-animals",
      "es-colours",
    ]);
    const question = await api("GET", "/api/2.1/question/es-colours");
    expect(question.status).toBe(200);
    const reference = (question.body as { question: { reference: string } }).question.reference;
    const answer = await api("PUT", `/api/2/answer/${encodeURIComponent(reference)}`, {
      body: { answer: "red" },
    });
    expect(answer.status).toBe(200);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("runs flow 1 of the groups family (create, rename, members, staff) through the global fetch", async () => {
    await groupsFlow(viaGlobalFetch);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("runs flow 2 of the content family (drill, course, publish, review, reception) through the global fetch", async () => {
    await contentFlow(viaGlobalFetch);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("runs issue 46's 2.1.1 content flow (drill position in a course, 428 warning, ignoreWarnings) through the global fetch", async () => {
    await contentFlowV211(viaGlobalFetch);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("runs issue 46's 2.1.1 groups flow (2.1 group read with 2.1.1, third-party member, staff in the path, member results, test results, resultFrom) through the global fetch", async () => {
    await groupsFlowV211(viaGlobalFetch);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("runs flow 3 of the tests family (define, answer, results as user and staff) through the global fetch", async () => {
    await testsFlow(viaGlobalFetch);
    expect(sandbox.responseViolations).toEqual([]);
  });

  it("shares the sandbox's state and controls: a fault injected on the handle shows through MSW", async () => {
    sandbox.injectFault({ operationId: "getVersion_v2_1", status: 503, retryAfter: 2 });
    const res = await globalThis.fetch(`${sandbox.url}/api/2.1/version`);
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(sandbox.faults()).toEqual([]);
  });

  it("validates requests as the sandbox does (a bad parameter is a 400 naming it)", async () => {
    const token = await tokenFor(viaGlobalFetch);
    const res = await globalThis.fetch(`${sandbox.url}/api/2.1/store?resultSize=lots`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ID: "invalid_request", parameter: "resultSize" });
  });

  it("leaves other origins to other handlers (here: unhandled, so MSW refuses them)", async () => {
    await expect(
      globalThis.fetch("https://elsewhere.drill-practice.invalid/api/2.1/version"),
    ).rejects.toThrow();
  });
});
