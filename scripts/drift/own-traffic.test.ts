/**
 * The drift check over our own traffic: the demo, the examples and the runtime matrix's Node
 * scenario run once through `pnpm drift:record`'s proxy in front of the sandbox, and `redocly
 * drift` finds nothing but what the named invalid requests are meant to cause. And the check is
 * live: a sandbox that answers what the description does not allow is caught.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { OpenApiDocument } from "@drill-practice/sandbox";
import { listOperations } from "@drill-practice/tooling/operations";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";
import { INVALID_REQUESTS, OWN_TRAFFIC } from "./own-traffic.ts";
import { SPEC_BUNDLE } from "./redocly.ts";
import { recordTraffic, type TrafficRun } from "./traffic-run.ts";

const dir = scratchDirForAll("drill-drift-test-");

describe("drift check over our own traffic", () => {
  let run: TrafficRun;
  beforeAll(async () => {
    run = await recordTraffic(join(dir(), "own"), OWN_TRAFFIC, INVALID_REQUESTS);
  }, 300_000);

  it("records every source through the proxy, the token exchanges included", () => {
    for (const source of OWN_TRAFFIC) {
      expect(run.requestsBySource.get(source.name), source.name).toBeGreaterThan(0);
    }
    const exchanges = run.har.log.entries.filter((e) => e.request.url.endsWith("/daas/oauth/token"));
    // demo (service account and a managed user), examples, scenario, invalid requests.
    expect(exchanges.length).toBeGreaterThanOrEqual(5);
    expect(run.report.run.totalExchanges).toBe(run.har.log.entries.length);
  });

  it("finds nothing but the findings of the named invalid requests", () => {
    expect(run.unexpected.map((finding) => finding.text)).toEqual([]);
    expect(run.missing).toEqual([]);
    const expectedCount = INVALID_REQUESTS.reduce((n, request) => n + request.rules.length, 0);
    expect(run.expected).toHaveLength(expectedCount);
    expect(run.report.run.findingsBySeverity.error).toBe(
      run.expected.filter((finding) => finding.problem.severity === "error").length,
    );
  });

  it("matches every other exchange to a documented operation, and covers what the sources call", () => {
    expect(run.report.run.undocumentedExchanges).toBe(1); // the "undocumented-endpoint" request
    const covered = run.coverage.operations
      .filter((op) => op.covered.some((item) => item.kind === "operation"))
      .map((op) => op.operationId);
    expect(covered).toEqual(
      expect.arrayContaining([
        "getAuthorizationServerMetadata",
        "exchangeToken",
        "searchStore_v2_0",
        "getQuestion_v2_0",
        "submitAnswer_v2_0",
        "getVersion_v2_0",
      ]),
    );
  });

  it("counts coverage against the whole description: each operation, response code and parameter once", async () => {
    type Operation = { responses?: object; parameters?: readonly unknown[] };
    const operations = listOperations<Operation>(JSON.parse(await readFile(SPEC_BUNDLE, "utf8")));
    const { totals } = run.coverage;
    expect(totals.operations.total).toBe(operations.length);
    expect(totals.responses.total).toBe(
      operations.reduce((n, { operation }) => n + Object.keys(operation.responses ?? {}).length, 0),
    );
    expect(totals.parameters.total).toBe(
      operations.reduce((n, at) => n + (at.operation.parameters?.length ?? 0) + at.pathParameters.length, 0),
    );
    const exercised = run.coverage.operations.filter((op) => op.covered.some((c) => c.kind === "operation"));
    expect(totals.operations.covered).toBe(exercised.length);
    for (const [kind, { covered, total }] of Object.entries(totals)) {
      expect(covered, kind).toBeGreaterThan(0);
      expect(covered, kind).toBeLessThan(total);
    }
  });
});

describe("drift check: a sandbox that breaks the description", () => {
  it("reports a discovery answer without token_endpoint as an unexpected finding", async () => {
    // The sandbox runs on a description that lets discovery answer anything, and is programmed to
    // leave out token_endpoint; the drift check holds the answer to the real description.
    const loose = JSON.parse(await readFile(SPEC_BUNDLE, "utf8")) as {
      components: { schemas: Record<string, unknown> };
    };
    loose.components.schemas.AuthorizationServerMetadata = { type: "object" };
    const run = await recordTraffic(
      join(dir(), "broken"),
      [
        {
          name: "one discovery request",
          run: async ({ proxyUrl }) => {
            await (await fetch(`${proxyUrl}/.well-known/oauth-authorization-server`)).arrayBuffer();
          },
        },
      ],
      [],
      {
        spec: loose as unknown as OpenApiDocument,
        responses: [
          {
            operationId: "getAuthorizationServerMetadata",
            status: 200,
            body: { issuer: "http://127.0.0.1:1" },
          },
        ],
      },
    );
    expect(run.unexpected.map((finding) => finding.problem.operationId)).toEqual([
      "getAuthorizationServerMetadata",
    ]);
    expect(run.unexpected[0]?.problem.severity).toBe("error");
    expect(run.unexpected[0]?.text).toMatch(/token_endpoint/);
    expect(run.driftExitCode).toBe(1);
  }, 180_000);
});
