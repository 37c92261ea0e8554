/**
 * Drift coverage: how much of the description our own traffic exercises, as `redocly drift
 * --coverage` counts it (bench/README.md says what the traffic is and which behaviour is a test).
 */
import { withScratchDir } from "@drill-practice/tooling/scratch";
import { INVALID_REQUESTS, OWN_TRAFFIC } from "../scripts/drift/own-traffic.ts";
import { recordTraffic } from "../scripts/drift/traffic-run.ts";
import { type BenchmarkResult, info, timed } from "./harness.ts";

const LABELS = {
  operations: "operations exercised",
  responses: "response codes exercised",
  parameters: "parameters exercised",
  properties: "schema properties exercised",
} as const;

/** @public The benchmark itself: bench/run.ts loads this file by its name. */
export function run(): Promise<BenchmarkResult> {
  return timed("drift-coverage", async () => {
    const traffic = await withScratchDir("drill-bench-drift-", (dir) =>
      recordTraffic(dir, OWN_TRAFFIC, INVALID_REQUESTS),
    );
    const { totals, operations } = traffic.coverage;
    const severity = traffic.report.run.findingsBySeverity;
    const covered = operations.filter((op) => op.covered.some((c) => c.kind === "operation"));
    const coverage = Object.entries(LABELS).map(([kind, label]) => {
      const { covered, total } = totals[kind as keyof typeof LABELS];
      const cells = {
        ours: String(covered),
        reference: String(total),
        ratio: `${((100 * covered) / total).toFixed(1)} %`,
      };
      return info(
        `${label} (covered / in the description)`,
        cells,
        kind === "operations" || kind === "responses",
      );
    });
    const sources = [...traffic.requestsBySource].map(([source, n]) => `${source} ${n}`);
    return {
      setup: [
        `${traffic.har.log.entries.length} exchanges recorded: ${sources.join(", ")}`,
        `match mode basepath; findings: ${severity.error} error, ${severity.warning} warning, ${severity.info} info`,
      ],
      rows: coverage,
      details: [
        {
          title: "Operations exercised",
          headers: ["operation", "response codes covered"],
          rows: covered.map((op) => [
            `\`${op.operationId ?? `${op.method} ${op.path}`}\``,
            op.covered.flatMap((c) => (c.kind === "response" ? [c.status] : [])).join(", "),
          ]),
        },
      ],
    };
  });
}
