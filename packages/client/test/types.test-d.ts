/**
 * Type-level behaviour, checked by vitest's typecheck mode (and by `tsc --noEmit`):
 * every `@ts-expect-error` below must stay an error, every `expectTypeOf` must
 * hold. Nothing here runs; a type error fails the test it sits in.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  createDrillClient,
  type Drillable,
  type Drillables,
  type DrillClient,
  type NotShown,
  type PathsV2_0,
  type PathsV2_1,
  type paths,
  type QuestionResponse,
  type ThrowingDrillClient,
  unwrap,
} from "../src/index.js";
import { paginateStore } from "../src/pagination.js";
import { BASE_URL, DRILLABLE, json, QUESTION } from "./helpers.js";

const fetchStub = async (request: Request) =>
  new URL(request.url).pathname.includes("question")
    ? json(QUESTION)
    : json({ total: 1, drills: [DRILLABLE] });

describe("types", () => {
  it("version-scoped path types keep only one version plus token and discovery", () => {
    expectTypeOf<keyof PathsV2_1>().toMatchTypeOf<
      `/api/2.1/${string}` | "/daas/oauth/token" | "/.well-known/oauth-authorization-server"
    >();
    expectTypeOf<keyof PathsV2_0>().toMatchTypeOf<
      `/api/2/${string}` | "/daas/oauth/token" | "/.well-known/oauth-authorization-server"
    >();
    expectTypeOf<"/api/2.1/store">().toMatchTypeOf<keyof PathsV2_1>();
    expectTypeOf<"/api/2/store">().toMatchTypeOf<keyof PathsV2_0>();
    expectTypeOf<"/daas/oauth/token">().toMatchTypeOf<keyof PathsV2_0 & keyof PathsV2_1>();
    expectTypeOf<"/.well-known/oauth-authorization-server">().toMatchTypeOf<
      keyof PathsV2_0 & keyof PathsV2_1
    >();
    expectTypeOf<Extract<keyof PathsV2_1, `/api/2/${string}`>>().toBeNever();
    expectTypeOf<Extract<keyof PathsV2_0, `/api/2.1/${string}`>>().toBeNever();
    expectTypeOf<PathsV2_1["/api/2.1/store"]>().toEqualTypeOf<paths["/api/2.1/store"]>();
  });

  it("version option and type argument narrow the client", async () => {
    const both = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub });
    const v21 = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub, version: "2.1" });
    const v20 = createDrillClient<PathsV2_0>({ baseUrl: BASE_URL, fetch: fetchStub });
    expectTypeOf(both).toEqualTypeOf<DrillClient<paths>>();
    expectTypeOf(v21).toEqualTypeOf<DrillClient<PathsV2_1>>();
    expectTypeOf(v20).toEqualTypeOf<DrillClient<PathsV2_0>>();

    await both.GET("/api/2/version");
    await both.GET("/api/2.1/version");
    await v21.GET("/api/2.1/version");
    // @ts-expect-error a 2.1 client has no 2.0 paths
    await v21.GET("/api/2/version").catch(() => undefined);
    await v20.GET("/api/2/version");
    // @ts-expect-error a 2.0 client has no 2.1 paths
    await v20.GET("/api/2.1/version").catch(() => undefined);
    await v20.GET("/.well-known/oauth-authorization-server");
  });

  it("parameters are checked", async () => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub });
    // @ts-expect-error drill_id is required
    await client.GET("/api/2/question/{drill_id}").catch(() => undefined);
    // @ts-expect-error drill_id is a string
    await client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: 7 } } });
    // @ts-expect-error searchField values are an enum
    await client.GET("/api/2/store", { params: { query: { searchField: ["TITLE"] } } });
    // @ts-expect-error resultStart is a number or a string of digits, not a boolean
    await client.GET("/api/2/store", { params: { query: { resultStart: true } } });
    // @ts-expect-error no such path
    await client.GET("/api/2/nowhere").catch(() => undefined);
  });

  it("success bodies are typed in both modes", async () => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub });
    const { data } = await client.GET("/api/2/store", { params: { query: { query: "x" } } });
    expectTypeOf(data).toEqualTypeOf<Drillables | undefined>();
    const unwrapped = await unwrap(
      client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "d" } } }),
    );
    expectTypeOf(unwrapped).toEqualTypeOf<QuestionResponse>();

    const throwing = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub, throwOnError: true });
    expectTypeOf(throwing).toEqualTypeOf<ThrowingDrillClient<paths>>();
    const page = await throwing.GET("/api/2/store", { params: { query: { query: "x" } } });
    expectTypeOf(page).toEqualTypeOf<Drillables>();
    // 2.1 bodies are not shown by the interface.
    const v21 = await throwing.GET("/api/2.1/store", { params: { query: { query: "x" } } });
    expectTypeOf(v21).toEqualTypeOf<NotShown>();
    const scoped = createDrillClient({
      baseUrl: BASE_URL,
      fetch: fetchStub,
      version: "2.0",
      throwOnError: true,
    });
    expectTypeOf(scoped).toEqualTypeOf<ThrowingDrillClient<PathsV2_0>>();
  });

  it("pagination items follow the version", () => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub });
    const v21 = createDrillClient({ baseUrl: BASE_URL, fetch: fetchStub, version: "2.1" });
    expectTypeOf(paginateStore(client, { query: "x" }, { pageSize: 5 })).toEqualTypeOf<
      AsyncGenerator<Drillable, void, undefined>
    >();
    expectTypeOf(paginateStore(v21, { query: "x" }, { pageSize: 5, version: "2.1" })).toEqualTypeOf<
      AsyncGenerator<NotShown, void, undefined>
    >();
    // @ts-expect-error a 2.1 client cannot page through the 2.0 store
    paginateStore(v21, { query: "x" }, { pageSize: 5 });
    // @ts-expect-error resultStart is set by the paginator
    paginateStore(client, { query: "x", resultStart: "5" }, { pageSize: 5 });
  });
});
