/**
 * What 2.1.1 changed, as a user of `@drill-practice/client/v2.1.1` writes it: a drill's position in
 * the course path, `test-results`, objective events, the staff permission as a path segment, the
 * groups list paged by `resultFrom` with a `pagination` object. Each call compiles with the 2.1.1
 * shape, its answer is read with named fields, and the 2.1 way of writing it does not compile.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  type components,
  createDrillClient,
  type GroupStaff_v2_1,
  type Groups_v2_1_1,
  type GroupTestResults_v2_1_1,
} from "../src/v2.1.1.js";
import { BASE_URL } from "./helpers.js";

type Schemas = components["schemas"];
const client = createDrillClient({ baseUrl: BASE_URL, throwOnError: true });

describe("API 2.1.1's changed operations, typed", () => {
  it("pages the groups list from a group ID and reads where the page ended", async () => {
    const groups = await client.GET("/api/2.1.1/groups", {
      params: { query: { query: "verbs", resultFrom: "g-7", resultSize: 10 } },
    });
    expectTypeOf(groups).toEqualTypeOf<Groups_v2_1_1>();
    expectTypeOf(groups.pagination).toEqualTypeOf<Schemas["Pagination_v2_1_1"] | undefined>();
    expectTypeOf<NonNullable<typeof groups.pagination>["moreAvailable"]>().toEqualTypeOf<boolean>();
    expectTypeOf<NonNullable<typeof groups.pagination>["lastOnPage"]>().toEqualTypeOf<string>();
    // 2.1 paged by a number of results to skip; 2.1.1 by the last ID seen.
    // @ts-expect-error resultStart is not a parameter of the 2.1.1 groups list
    await client.GET("/api/2.1.1/groups", { params: { query: { resultStart: 10 } } });
    // @ts-expect-error an answer names its fields: a misspelt one does not compile
    void groups.pagniation;
  });

  it("puts a drill at a position in the course path", async () => {
    const course = await client.PUT("/api/2.1.1/course/{course}/{drill}/{position}", {
      params: { path: { course: "c-1", drill: "d-1", position: 2 } },
    });
    expectTypeOf(course).toEqualTypeOf<Schemas["Course_v2_1"]>();
    await client.PUT("/api/2.1.1/course/{course}/{drill}/{position}", {
      // @ts-expect-error the position is a number
      params: { path: { course: "c-1", drill: "d-1", position: "second" } },
    });
  });

  it("gives a staff permission as a path segment, MANAGE or VIEW", async () => {
    const staff = await client.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      params: { path: { group: "g-1", user: "u-1", permission: "VIEW" } },
    });
    expectTypeOf(staff).toEqualTypeOf<GroupStaff_v2_1>();
    await client.PUT("/api/2.1.1/group/{group}/staff/{user}/{permission}", {
      // @ts-expect-error a permission the page does not list
      params: { path: { group: "g-1", user: "u-1", permission: "OWNER" } },
    });
  });

  it("reads a group's test results and completes a test at test-result", async () => {
    const results = await client.GET("/api/2.1.1/group/{group}/test-results/{test}", {
      params: { path: { group: "g-1", test: "t-1" }, query: { resultStart: 0, resultSize: 20 } },
    });
    expectTypeOf(results).toEqualTypeOf<GroupTestResults_v2_1_1>();
    const result = await client.PUT("/api/2.1.1/test-result/{test}", {
      params: { path: { test: "t-1" } },
    });
    expectTypeOf(result.id).toEqualTypeOf<string>();
    expectTypeOf(result.score).toEqualTypeOf<Schemas["TestResult_v2_1_1"]["score"]>();
    // @ts-expect-error 2.1's path for a user's test results is gone in 2.1.1
    await client.GET("/api/2.1.1/test-result/{test}/{user}");
  });

  it("lists an objective's events, whose answer no page shows", async () => {
    const events = await client.GET("/api/2.1.1/objectives/{objective}/events", {
      params: { path: { objective: "o-1" }, query: { fromDate: "2026-01-01", resultFrom: "e-9" } },
    });
    // The page is cut before the answer: it stays open rather than guessed.
    expectTypeOf(events).toEqualTypeOf<Schemas["NotShown"]>();
  });
});
