/**
 * The client's size budgets, as `pnpm test` checks them: what an application pays for the client
 * in a browser bundle (min + gzip), bundled by the same code as the bundle-size benchmark. Sizes
 * are deterministic for a given build and esbuild version, so unlike the timings this is a test.
 */
import { describe, expect, it } from "vitest";
import { bundle, CLIENT_BUDGETS, measureClientBudgets, OPENAPI_FETCH_ALONE } from "./bundle.ts";

/** One line per budget exceeded: which budget, the size, and by how much it is over. */
function overBudget(measured: Awaited<ReturnType<typeof measureClientBudgets>>): string[] {
  return measured
    .filter(({ budget, size }) => size.gzipped > budget.bytes)
    .map(
      ({ budget, size }) =>
        `${budget.label}: ${size.gzipped.toLocaleString("en-US")} B min + gzip exceeds its budget of ` +
        `${budget.bytes.toLocaleString("en-US")} B by ${(size.gzipped - budget.bytes).toLocaleString("en-US")} B ` +
        "(see `pnpm bench:run --no-write bundle-size` for the per-export and per-file breakdown)",
    );
}

describe("client size budgets (browser, min + gzip)", () => {
  it(`stays within every budget (${CLIENT_BUDGETS.map((budget) => `${budget.bytes.toLocaleString("en-US")} B`).join(", ")})`, async () => {
    const measured = await measureClientBudgets();
    // A bundle tree-shaken to nothing would pass any budget: each must hold the client's own code
    // on top of openapi-fetch.
    const openapiFetch = await bundle(OPENAPI_FETCH_ALONE);
    for (const { size } of measured) expect(size.gzipped).toBeGreaterThan(openapiFetch.gzipped);
    const problems = overBudget(measured);
    expect(problems, problems.join("\n")).toEqual([]);
  });
});
