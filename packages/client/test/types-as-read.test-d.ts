/**
 * The types as a user reads them, in every version: known answer values survive the usual
 * idioms, answers name their fields and nothing else, forms a page shows are typed, and a paging
 * parameter takes one type across its operations. Each check failed on the types before it.
 */
import { describe, expectTypeOf, it } from "vitest";
import * as v20 from "../src/v2.0.js";
import * as v21 from "../src/v2.1.js";
import { BASE_URL } from "./helpers.js";

type Staff21 = NonNullable<v21.GroupStaff_v2_1["groupStaffUsers"]>[number];

describe("types as users read them", () => {
  it("known answer values survive NonNullable, Required and Exclude", () => {
    expectTypeOf<Extract<NonNullable<v21.Beacon_v2_1["proximity"]>, "FAR">>().toEqualTypeOf<"FAR">();
    expectTypeOf<Extract<Required<v21.Beacon_v2_1>["proximity"], "NEAR">>().toEqualTypeOf<"NEAR">();
    expectTypeOf<Extract<Exclude<Staff21["permission"], undefined>, "VIEW">>().toEqualTypeOf<"VIEW">();
    expectTypeOf<Extract<NonNullable<v20.Evaluation["timing"]>, "TOO_LATE">>().toEqualTypeOf<"TOO_LATE">();
    expectTypeOf<Extract<NonNullable<v20.Drillable["type"]>, "COURSE">>().toEqualTypeOf<"COURSE">();
    // Any other string still fits an answer: the union stays open.
    expectTypeOf<"VERY_FAR">().toMatchTypeOf<NonNullable<v21.Beacon_v2_1["proximity"]>>();
  });

  it("answers name their fields and nothing else", () => {
    const group = {} as v21.Group_v2_1;
    // @ts-expect-error a misspelt field of an answer does not compile
    void group.nmae;
    // @ts-expect-error nor one of a nested object the page shows
    void group.counts?.membres;
    expectTypeOf(group.name).toEqualTypeOf<string | undefined>();
    const staff = {} as v20.GroupStaff_v2_0;
    // @ts-expect-error the 2.0 answers as well
    void staff.groupStaffUser;
  });

  it("a form the page shows is typed: the staff permission", async () => {
    const client = v21.createDrillClient({ baseUrl: BASE_URL, throwOnError: true });
    const path = { group: "g", user: "u" };
    const url = "/api/2.1/group/{group}/staff/{user}/permission";
    await client.PUT(url, { params: { path }, body: { permission: "VIEW" } });
    // @ts-expect-error a misspelt field
    await client.PUT(url, { params: { path }, body: { permisson: "VIEW" } });
    // @ts-expect-error a value the page does not list
    await client.PUT(url, { params: { path }, body: { permission: "OWNER" } });
  });

  it("a form the page shows is typed: contacting an author", async () => {
    const client = v21.createDrillClient({ baseUrl: BASE_URL, throwOnError: true });
    const params = { path: { playable: "p" } };
    await client.POST("/api/2.1/playable/{playable}/contact-author", { params, body: { message: "Thanks" } });
    // @ts-expect-error a misspelt field
    await client.POST("/api/2.1/playable/{playable}/contact-author", { params, body: { mesage: "Thanks" } });
  });

  it("a paging parameter takes a number on every operation that pages by it", async () => {
    const c20 = v20.createDrillClient({ baseUrl: BASE_URL, throwOnError: true });
    const c21 = v21.createDrillClient({ baseUrl: BASE_URL, throwOnError: true });
    const paging = { resultStart: 20, resultSize: 10 };
    await c20.GET("/api/2/store", { params: { query: { query: "verbs", ...paging } } });
    await c20.GET("/api/2/group/{group_id}/members", { params: { path: { group_id: "g" }, query: paging } });
    await c21.GET("/api/2.1/store", { params: { query: { query: "verbs", ...paging } } });
    await c21.GET("/api/2.1/groups", { params: { query: paging } });
    await c21.GET("/api/2.1/group/{group}/members", {
      params: { path: { group: "g" }, query: { resultSize: 10 } },
    });
  });
});
