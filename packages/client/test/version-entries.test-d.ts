/**
 * The one-version entries are typed with their own generated `paths`; these
 * must hold exactly the paths the all-versions types give that version.
 */
import { describe, expectTypeOf, it } from "vitest";
import type { PathsV2_0, PathsV2_1 } from "../src/index.js";
import * as v20 from "../src/v2.0.js";
import * as v21 from "../src/v2.1.js";
import { BASE_URL } from "./helpers.js";

describe("one-version entry types", () => {
  it("each entry's paths are the version's paths of the all-versions types", () => {
    expectTypeOf<keyof v21.paths>().toEqualTypeOf<keyof PathsV2_1>();
    expectTypeOf<keyof v20.paths>().toEqualTypeOf<keyof PathsV2_0>();
  });

  it("operations keep their parameter and response types", () => {
    expectTypeOf<v20.paths["/api/2/store"]["get"]["parameters"]["query"]>().toEqualTypeOf<
      PathsV2_0["/api/2/store"]["get"]["parameters"]["query"]
    >();
    expectTypeOf<v20.Drillables>().toEqualTypeOf<
      PathsV2_0["/api/2/store"]["get"]["responses"]["2XX"]["content"]["application/json"]
    >();
  });

  it("the factories are typed to their version, with or without throwOnError", async () => {
    const client = v21.createDrillClient({ baseUrl: BASE_URL });
    expectTypeOf(client).toEqualTypeOf<v21.DrillClient>();
    // @ts-expect-error a 2.0 path on the 2.1 entry
    void client.GET("/api/2/store", { params: { query: {} } });
    const throwing = v20.createDrillClient({ baseUrl: BASE_URL, throwOnError: true });
    expectTypeOf(throwing).toEqualTypeOf<v20.ThrowingDrillClient>();
    expectTypeOf(
      await throwing.GET("/api/2/store", { params: { query: {} } }),
    ).toEqualTypeOf<v20.Drillables>();
    // @ts-expect-error the version option is the entry's own
    v20.createDrillClient({ baseUrl: BASE_URL, version: "2.1" });
  });
});
