/**
 * Drift coverage: our own traffic (the demo, the examples, the runtime matrix's Node scenario and
 * the named invalid requests) recorded through `pnpm drift:record`'s proxy in front of the sandbox
 * and held against the description with `redocly drift`, the same run as the drift test. Reports
 * how much of the description that traffic exercises (operations, response codes, parameters,
 * schema properties), against the description's own totals, and the findings.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { INVALID_REQUESTS, OWN_TRAFFIC } from "../scripts/drift/own-traffic.ts";
import { recordTraffic } from "../scripts/drift/traffic-run.ts";
import type { BenchmarkResult, ResultRow } from "./report.ts";
import { formatMs, now } from "./stats.ts";

const LABELS = {
  operations: "operations exercised",
  responses: "response codes exercised",
  parameters: "parameters exercised",
  properties: "schema properties exercised",
} as const;

export async function run(): Promise<BenchmarkResult> {
  const started = now();
  const dir = await mkdtemp(join(tmpdir(), "drill-bench-drift-"));
  try {
    const traffic = await recordTraffic(dir, OWN_TRAFFIC, INVALID_REQUESTS);
    const { totals } = traffic.coverage;
    const rows: ResultRow[] = (Object.keys(LABELS) as (keyof typeof LABELS)[]).map((kind) => ({
      metric: `${LABELS[kind]} (covered / in the description)`,
      ours: String(totals[kind].covered),
      reference: String(totals[kind].total),
      ratio: `${((100 * totals[kind].covered) / totals[kind].total).toFixed(1)} %`,
      target: "—",
      verdict: "info",
      headline: kind === "operations" || kind === "responses",
    }));
    rows.push({
      metric: "unexpected findings (any finding not tied to its named invalid request)",
      ours: String(traffic.unexpected.length),
      reference: "—",
      ratio: "—",
      target: "0",
      verdict: traffic.unexpected.length === 0 && traffic.missing.length === 0 ? "met" : "missed",
      ...(traffic.unexpected.length > 0 || traffic.missing.length > 0
        ? { miss: [...traffic.unexpected.map((f) => f.text), ...traffic.missing].join("; ") }
        : {}),
    });
    rows.push({
      metric: "expected findings (on the named invalid requests)",
      ours: String(traffic.expected.length),
      reference: String(INVALID_REQUESTS.reduce((n, request) => n + request.rules.length, 0)),
      ratio: "—",
      target: "—",
      verdict: "info",
    });
    const covered = traffic.coverage.operations.filter((op) =>
      op.covered.some((c) => c.kind === "operation"),
    );
    return {
      name: "drift-coverage",
      title: "Drift check: how much of the description our own traffic exercises",
      measured:
        "The demo, the examples and the runtime matrix's Node scenario run once through `pnpm drift:record`'s " +
        "proxy (`redocly proxy`) in front of the sandbox, with the named invalid requests of " +
        "`scripts/drift/own-traffic.ts`; `redocly drift --coverage` holds the redacted recording against " +
        "`spec/dist/openapi.json`. The reference column is the description's own total.",
      setup: [
        `${traffic.har.log.entries.length} exchanges recorded: ${[...traffic.requestsBySource]
          .map(([source, n]) => `${source} ${n}`)
          .join(", ")}`,
        `match mode basepath; findings: ${traffic.report.run.findingsBySeverity.error} error, ` +
          `${traffic.report.run.findingsBySeverity.warning} warning, ${traffic.report.run.findingsBySeverity.info} info`,
      ],
      rows,
      details: [
        {
          title: "Findings",
          headers: ["finding", "tied to"],
          rows: [...traffic.expected, ...traffic.unexpected].map((f) => [
            f.text,
            f.request ?? "(nothing: unexpected)",
          ]),
        },
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
        "Coverage is a property of the traffic, not a speed: it grows when the demo, the examples or the " +
          "scenario call more operations. The same run is `scripts/drift/own-traffic.test.ts` in `pnpm test`, " +
          "which fails on any unexpected finding.",
        `Recording, sandbox and check took ${formatMs(now() - started)} on this machine.`,
      ],
      durationMs: now() - started,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
