import { describe, expect, it } from "vitest";
import {
  createDrillClient,
  DrillApiError,
  DrillInvalidOptionError,
  DrillUnexpectedResponseError,
} from "../src/index.js";
import { paginateStore, paginateStorePages } from "../src/pagination.js";
import { BASE_URL, json, type RecordingFetch, recordingFetch } from "./helpers.js";

function drills(count: number) {
  return Array.from({ length: count }, (_, index) => ({
    id: `drill-${index}`,
    name: `Drill ${index}`,
    subject: "Spanish",
    type: "DRILL",
    description: `Entry ${index}`,
  }));
}

/** A store that pages through `entries` the way the interface describes. */
function store(entries: unknown[], total: number | string = entries.length) {
  return recordingFetch((request) => {
    const query = new URL(request.url).searchParams;
    const start = Number(query.get("resultStart") ?? "0");
    const size = query.has("resultSize") ? Number(query.get("resultSize")) : entries.length;
    return json({ total, drills: entries.slice(start, start + size) });
  });
}

async function collect<T>(iterator: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterator) items.push(item);
  return items;
}

/** Options for a client of `server` that returns each answer as it comes (no retries). */
function storeOptions(server: RecordingFetch): {
  baseUrl: string;
  fetch: RecordingFetch["fetch"];
  retry: false;
} {
  return { baseUrl: BASE_URL, fetch: server.fetch, retry: false };
}

function storeClient(server: RecordingFetch) {
  return createDrillClient(storeOptions(server));
}

describe("paginateStore", () => {
  it("walks 23 results in pages of 5 and yields each entry once (2.0)", async () => {
    const entries = drills(23);
    const server = store(entries);
    const client = storeClient(server);
    const seen = await collect(paginateStore(client, { query: "spanish" }, { pageSize: 5 }));
    expect(seen.map((entry) => entry.id)).toEqual(entries.map((entry) => entry.id));
    const requested = server.requests.map((request) => new URL(request.url));
    expect(requested.map((url) => url.pathname)).toEqual(Array(5).fill("/api/2/store"));
    expect(
      requested.map((url) => [url.searchParams.get("resultStart"), url.searchParams.get("resultSize")]),
    ).toEqual([
      ["0", "5"],
      ["5", "5"],
      ["10", "5"],
      ["15", "5"],
      ["20", "5"],
    ]);
  });

  it("reports pages with total, start and entries; the last page is short", async () => {
    const server = store(drills(12));
    const client = storeClient(server);
    const pages = await collect(paginateStorePages(client, { query: "x" }, { pageSize: 5 }));
    expect(pages.map((page) => [page.total, page.start, page.drills.length])).toEqual([
      [12, 0, 5],
      [12, 5, 5],
      [12, 10, 2],
    ]);
  });

  it("searches the 2.1 store with version 2.1", async () => {
    const server = store(drills(7));
    const client = createDrillClient({ ...storeOptions(server), version: "2.1" });
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 3, version: "2.1" }));
    expect(seen).toHaveLength(7);
    expect(server.requests.map((request) => new URL(request.url).pathname)).toEqual(
      Array(3).fill("/api/2.1/store"),
    );
  });

  it("sends the search parameters with every page", async () => {
    const server = store(drills(4));
    const client = storeClient(server);
    await collect(
      paginateStore(
        client,
        { query: "a AND b", searchField: ["NAME", "TAGS"], catalog: "cat-1" },
        { pageSize: 2 },
      ),
    );
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      const query = new URL(request.url).searchParams;
      expect(query.get("query")).toBe("a AND b");
      expect(query.getAll("searchField")).toEqual(["NAME", "TAGS"]);
      expect(query.get("catalog")).toBe("cat-1");
    }
  });

  it("stops after the last full page when the total is a multiple of the page size", async () => {
    const server = store(drills(10));
    const client = storeClient(server);
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toHaveLength(10);
    expect(server.requests).toHaveLength(2);
  });

  it("makes one request for an empty result", async () => {
    const server = store([]);
    const client = storeClient(server);
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("stops at an empty page when the server claims more than it has", async () => {
    const server = store(drills(7), 1_000_000);
    const client = storeClient(server);
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toHaveLength(7);
    expect(server.requests).toHaveLength(3);
  });

  it("stops at total when the server sends more entries than it counts", async () => {
    const server = recordingFetch(() => json({ total: 3, drills: drills(10) }));
    const client = storeClient(server);
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }));
    expect(seen.map((entry) => entry.id)).toEqual(["drill-0", "drill-1", "drill-2"]);
    expect(server.requests).toHaveLength(1);
  });

  it("yields each entry once and ends when a server repeats the same page", async () => {
    const server = recordingFetch(() => json({ total: 10, drills: drills(5) }));
    const client = storeClient(server);
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }));
    expect(seen.map((entry) => entry.id)).toEqual(drills(5).map((entry) => entry.id));
    expect(server.requests).toHaveLength(2);
  });

  it("accepts a total sent as a string of digits", async () => {
    const count = 12;
    const server = store(drills(count), String(count));
    const client = storeClient(server);
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 4 }))).toHaveLength(count);
  });

  it("never yields more than the first page's total, even when later pages come back full", async () => {
    const total = 5;
    const pageSize = 2;
    // A server that ignores resultSize's end: every page is full, with fresh IDs.
    let served = 0;
    const server = recordingFetch(() => {
      const page = Array.from({ length: pageSize }, () => ({ ...drills(1)[0], id: `drill-${served++}` }));
      return json({ total, drills: page });
    });
    const client = storeClient(server);
    const pages = await collect(paginateStorePages(client, { query: "x" }, { pageSize }));
    expect(pages.flatMap((page) => page.drills)).toHaveLength(total);
    expect(pages.map((page) => page.start)).toEqual([0, 2, 4]);
    expect(pages.at(-1)?.drills).toHaveLength(total % pageSize);
  });

  it("yields every entry that has no string id (it cannot tell them apart), null included", async () => {
    const odd = [{ name: "no id" }, { name: "no id" }, null, { id: 7 }, { id: 7 }];
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: async () => json({ total: odd.length, drills: odd }),
      retry: false,
    });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: odd.length }))).toEqual(odd);
  });

  it("sends no further request when the caller stops early", async () => {
    const server = store(drills(50));
    const client = storeClient(server);
    let count = 0;
    for await (const _entry of paginateStore(client, { query: "x" }, { pageSize: 10 })) {
      if (++count === 12) break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it("works with a throwing client", async () => {
    const server = store(drills(3));
    const client = createDrillClient({ ...storeOptions(server), throwOnError: true });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 2 }))).toHaveLength(3);
  });

  it("rejects with DrillApiError when a page fails", async () => {
    const server = recordingFetch(
      () => json({ total: 4, drills: drills(2) }),
      () => json({ ID: "error" }, { status: 500 }),
    );
    const client = storeClient(server);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const entry of paginateStore(client, { query: "x" }, { pageSize: 2 })) seen.push(entry.id);
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual(["drill-0", "drill-1"]);
    expect(error).toBeInstanceOf(DrillApiError);
    expect(error).toMatchObject({
      status: 500,
      errorId: "error",
      operation: { method: "GET", path: "/api/2/store" },
    });
  });

  const notAnObject = "expected an object with total and drills";
  const badTotal = (total: unknown) => `total is ${JSON.stringify(total)}, expected a non-negative integer`;
  it.each([
    ["a body that is an array", [], notAnObject],
    ["a body that is null", null, notAnObject],
    ["a body that is a string", "page", notAnObject],
    ["a missing total", { drills: [] }, badTotal(undefined)],
    ["a negative total", { total: -1, drills: [] }, badTotal(-1)],
    ["a fractional total", { total: 1.5, drills: [] }, badTotal(1.5)],
    ["a null total", { total: null, drills: [] }, badTotal(null)],
    ["a total in an array", { total: [5], drills: [] }, badTotal([5])],
    ["a total with a sign", { total: "+12", drills: [] }, badTotal("+12")],
    ["a total with a space", { total: " 12", drills: [] }, badTotal(" 12")],
    ["a total in exponent notation", { total: "1e3", drills: [] }, badTotal("1e3")],
    ["drills that are not an array", { total: 1, drills: "none" }, "drills is not an array"],
  ])("rejects %s with DrillUnexpectedResponseError naming the problem", async (_label, body, problem) => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => json(body), retry: false });
    const error = await collect(paginateStore(client, { query: "x" }, { pageSize: 2 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DrillUnexpectedResponseError);
    const operation = { method: "GET", path: "/api/2/store" };
    expect(error).toMatchObject({ code: "ERR_UNEXPECTED_RESPONSE", body, operation });
    expect((error as Error).message).toBe(
      `${operation.method} ${operation.path} answered unexpectedly: ${problem}`,
    );
  });

  it("names the operation in a bad-page error even for a bare openapi-fetch-like client", async () => {
    // Without createDrillClient's middleware the paginator's own idea of the operation is all there is.
    const bare = { GET: async () => ({ data: { drills: [] }, response: new Response("{}") }) };
    const error = await collect(
      paginateStore(bare as never, { query: "x" }, { pageSize: 2, version: "2.1" }),
    ).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DrillUnexpectedResponseError);
    expect(error).toMatchObject({ operation: { method: "GET", path: "/api/2.1/store" } });
  });

  it.each([0, -1, 2.5, Number.NaN, "5"])("refuses pageSize %s", (pageSize) => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => json({}), retry: false });
    const options = { pageSize: pageSize as number };
    expect(() => paginateStorePages(client, { query: "x" }, options)).toThrow(DrillInvalidOptionError);
    expect(() => paginateStore(client, { query: "x" }, options)).toThrow(
      "Invalid option pageSize: expected an integer of at least 1",
    );
  });

  it("takes pageSize 1, the smallest page", async () => {
    const count = 3;
    const server = store(drills(count));
    const client = storeClient(server);
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 1 }))).toHaveLength(count);
    expect(server.requests.map((request) => new URL(request.url).searchParams.get("resultSize"))).toEqual(
      Array(count).fill("1"),
    );
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const server = store(drills(10));
    const client = storeClient(server);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const entry of paginateStore(
        client,
        { query: "x" },
        { pageSize: 3, signal: controller.signal },
      )) {
        seen.push(entry.id);
        if (seen.length === 3) controller.abort(new Error("enough"));
      }
    })().catch((caught: unknown) => caught);
    expect((error as Error).message).toBe("enough");
    expect(seen).toHaveLength(3);
    expect(server.requests).toHaveLength(1);
  });
});

describe("paginateStore: arguments, each refused with the option it names", () => {
  const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => json({}), retry: false });
  const refusals: [string, () => unknown, string][] = [
    ["params null", () => paginateStore(client, null as never, { pageSize: 2 }), "params"],
    ["params an array", () => paginateStore(client, [] as never, { pageSize: 2 }), "params"],
    ["params a string", () => paginateStore(client, "q" as never, { pageSize: 2 }), "params"],
    ["options null", () => paginateStore(client, { query: "x" }, null as never), "options"],
    ["options a number", () => paginateStore(client, { query: "x" }, 5 as never), "options"],
    [
      "an unknown version",
      () => paginateStore(client, { query: "x" }, { pageSize: 2, version: "3.0" as never }),
      "version",
    ],
    [
      "a signal that is not an AbortSignal",
      () => paginateStore(client, { query: "x" }, { pageSize: 2, signal: {} as never }),
      "signal",
    ],
    ["no client", () => paginateStore(null as never, { query: "x" }, { pageSize: 2 }), "client"],
    ["a number as client", () => paginateStore(5 as never, { query: "x" }, { pageSize: 2 }), "client"],
    ["a client without GET", () => paginateStore({} as never, { query: "x" }, { pageSize: 2 }), "client"],
    [
      "a client whose raw side is null",
      () => paginateStore({ raw: null } as never, { query: "x" }, { pageSize: 2 }),
      "client",
    ],
  ];
  it.each(refusals)("refuses %s", (_label, call, option) => {
    expect(call).toThrow(DrillInvalidOptionError);
    expect(call).toThrow(
      expect.objectContaining({
        option,
        message: expect.stringMatching(new RegExp(`^Invalid option ${option}: expected \\S`)),
      }),
    );
  });

  it("quotes an unknown version", () => {
    expect(() => paginateStore(client, { query: "x" }, { pageSize: 2, version: "3.0" as never })).toThrow(
      'Invalid option version: expected "2.1" or "2.0", got "3.0"',
    );
  });

  it("takes a client's raw side, or any object with GET", async () => {
    const page = { total: 1, drills: drills(1) };
    const bare = { GET: async () => ({ data: page, response: json(page) }) };
    expect(await collect(paginateStore(bare as never, { query: "x" }, { pageSize: 1 }))).toEqual(page.drills);
    expect(await collect(paginateStore({ raw: bare } as never, { query: "x" }, { pageSize: 1 }))).toEqual(
      page.drills,
    );
  });
});
