/**
 * Drift coverage: how much of the description our own traffic (demo, examples, the runtime matrix's
 * Node scenario) exercises, as `redocly drift --coverage` counts it. That the traffic raises no
 * unexpected finding is a test (scripts/drift/own-traffic.test.ts), not a row.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INVALID_REQUESTS, OWN_TRAFFIC } from "../scripts/drift/own-traffic.ts";
import { recordTraffic } from "../scripts/drift/traffic-run.ts";
import { type BenchmarkResult, info, timed } from "./harness.ts";

const LABELS = {
  operations: "operations exercised",
  responses: "response codes exercised",
  parameters: "parameters exercised",
  properties: "schema properties exercised",
} as const;

export function run(): Promise<BenchmarkResult> {
  return timed("drift-coverage", async () => {
    const dir = await mkdtemp(join(tmpdir(), "drill-bench-drift-"));
    try {
      const traffic = await recordTraffic(dir, OWN_TRAFFIC, INVALID_REQUESTS);
      const { totals } = traffic.coverage;
      const severity = traffic.report.run.findingsBySeverity;
      const covered = traffic.coverage.operations.filter((op) =>
        op.covered.some((c) => c.kind === "operation"),
      );
      return {
        title: "Drift check: how much of the description our own traffic exercises",
        measured:
          "The demo, the examples and the runtime matrix's Node scenario run once through `pnpm drift:record`'s " +
          "proxy (`redocly proxy`) in front of the sandbox, with the named invalid requests of " +
          "`scripts/drift/own-traffic.ts`; `redocly drift --coverage` holds the redacted recording against " +
          "`spec/dist/openapi.json`. The reference column is the description's own total.",
        setup: [
          `${traffic.har.log.entries.length} exchanges recorded: ${[...traffic.requestsBySource].map(([source, n]) => `${source} ${n}`).join(", ")}`,
          `match mode basepath; findings: ${severity.error} error, ${severity.warning} warning, ${severity.info} info`,
        ],
        rows: [
          ...(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((kind) =>
            info(
              `${LABELS[kind]} (covered / in the description)`,
              {
                ours: String(totals[kind].covered),
                reference: String(totals[kind].total),
                ratio: `${((100 * totals[kind].covered) / totals[kind].total).toFixed(1)} %`,
              },
              kind === "operations" || kind === "responses",
            ),
          ),
          info("expected findings (on the named invalid requests)", {
            ours: String(traffic.expected.length),
            reference: String(INVALID_REQUESTS.reduce((n, request) => n + request.rules.length, 0)),
          }),
          info("unexpected findings (any finding not tied to its named invalid request)", {
            ours: String(traffic.unexpected.length + traffic.missing.length),
          }),
        ],
        details: [
          {
            title: "Operations exercised",
            headers: ["operation", "response codes covered"],
            rows: covered.map((op) => [
              `\`${op.operationId ?? `${op.method} ${op.path}`}\``,
              op.covered
                .filter((c) => c.kind === "response")
                .map((c) => c.status)
                .join(", "),
            ]),
          },
        ],
        notes: [
          "Coverage is a property of the traffic, not a speed: it grows when the demo, the examples or the scenario " +
            "call more operations. The same run is `scripts/drift/own-traffic.test.ts` in `pnpm test`, which fails on " +
            "any unexpected finding.",
        ],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
