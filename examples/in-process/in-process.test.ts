/**
 * Testing your own code against the sandbox with no server: `createSandbox()` in a `beforeEach`, its
 * `fetch` handed to the client and to the auth (no socket, no port), and the same user code once more
 * behind MSW, for code that calls the global `fetch`.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient } from "@drill-practice/client";
import { createSandbox, type InProcessSandbox } from "@drill-practice/sandbox";
import { sandboxHandlers } from "@drill-practice/sandbox/msw";
import { setupServer } from "msw/node";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeReport } from "./store-report.ts";

let sandbox: InProcessSandbox;

beforeEach(async () => {
  sandbox = await createSandbox({ validateResponses: true });
});
afterEach(async () => {
  expect(sandbox.responseViolations).toEqual([]);
  await sandbox.close();
});

/** Auth for the sandbox's service account, its requests sent with `fetch`. */
function auth(fetch: typeof globalThis.fetch | undefined) {
  const keyFile = sandbox.credentials.keyFile();
  if (!keyFile) throw new Error("the default dataset's organization has a key pair");
  return serviceAccountAuth({
    key: JSON.stringify(keyFile),
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    ...(fetch ? { fetch } : {}),
  });
}

/** A client that reaches the sandbox, for its token as for its calls, through its in-process fetch. */
function sandboxClient() {
  return createDrillClient({ baseUrl: sandbox.url, fetch: sandbox.fetch, auth: auth(sandbox.fetch) });
}

describe("user code against createSandbox (in process)", () => {
  it("searches, practises and reads the evaluation", async () => {
    const client = sandboxClient();
    const report = await storeReport(client, "spanish");
    expect(report.total).toBeGreaterThan(0);
    expect(report.firstDrill).toBeDefined();
    expect(["CORRECT", "INCORRECT"]).toContain(report.evaluation);
  });

  it("sees the faults a test programs, through the client's own retries", async () => {
    // Two 503s on the search, then the real answer: the client retries them.
    sandbox.injectFault({ operationId: "searchStore_v2_0", status: 503, times: 2, retryAfter: 0 });
    const client = sandboxClient();
    const report = await storeReport(client, "spanish");
    expect(report.total).toBeGreaterThan(0);
    expect(sandbox.faults()).toEqual([]);
  });

  it("answers with the rule a test programs", async () => {
    sandbox.setResponses([{ operationId: "searchStore_v2_0", status: 200, body: { total: 0, drills: [] } }]);
    const client = sandboxClient();
    expect(await storeReport(client, "spanish")).toEqual({
      total: 0,
      firstDrill: undefined,
      evaluation: undefined,
    });
  });
});

describe("the same user code behind MSW (global fetch)", () => {
  it("works with a client that was given no fetch at all", async () => {
    const server = setupServer(...sandboxHandlers(sandbox));
    server.listen({ onUnhandledRequest: "error" });
    try {
      const client = createDrillClient({ baseUrl: sandbox.url, auth: auth(undefined) });
      const report = await storeReport(client, "spanish");
      expect(report.firstDrill).toBeDefined();
    } finally {
      server.close();
    }
  });
});
