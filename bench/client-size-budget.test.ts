/**
 * The client's size budgets, as `pnpm test` checks them: what an application pays for the client
 * in a browser bundle (min + gzip), bundled by the same code as the bundle-size benchmark. Sizes
 * are deterministic for a given build and esbuild version, so unlike the timings this is a test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  browserBundle,
  bundle,
  CLIENT_BUDGETS,
  clientErrorClasses,
  OPENAPI_FETCH_ALONE,
} from "./bundle-size.ts";

describe("client size budgets (browser, min + gzip)", () => {
  let errors: string[];
  let openapiFetchAlone: number;
  beforeAll(async () => {
    errors = await clientErrorClasses();
    openapiFetchAlone = (await bundle(OPENAPI_FETCH_ALONE)).gzipped;
  });

  it.each(CLIENT_BUDGETS)("$label stays within $bytes B", async ({ label, bytes, entry }) => {
    const { gzipped } = await bundle(browserBundle(label, entry(errors)));
    // A bundle tree-shaken to nothing would pass any budget: it must hold the client's own code on
    // top of openapi-fetch.
    expect(gzipped).toBeGreaterThan(openapiFetchAlone);
    const over = `${gzipped - bytes} B over; \`pnpm bench:run --no-write bundle-size\` breaks it down per export and file`;
    expect(gzipped, over).toBeLessThanOrEqual(bytes);
  });
});
