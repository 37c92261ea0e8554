import { describe, expect, it } from "vitest";
import {
  createDrillClient,
  DrillApiError,
  DrillInvalidOptionError,
  DrillUnexpectedResponseError,
} from "../src/index.js";
import { paginateStore, paginateStorePages } from "../src/pagination.js";
import { BASE_URL, json, recordingFetch } from "./helpers.js";

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

describe("paginateStore", () => {
  it("walks 23 results in pages of 5 and yields each entry once (2.0)", async () => {
    const entries = drills(23);
    const server = store(entries);
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
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
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    const pages = await collect(paginateStorePages(client, { query: "x" }, { pageSize: 5 }));
    expect(pages.map((page) => [page.total, page.start, page.drills.length])).toEqual([
      [12, 0, 5],
      [12, 5, 5],
      [12, 10, 2],
    ]);
  });

  it("searches the 2.1 store with version 2.1", async () => {
    const server = store(drills(7));
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: server.fetch,
      retry: false,
      version: "2.1",
    });
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 3, version: "2.1" }));
    expect(seen).toHaveLength(7);
    expect(server.requests.map((request) => new URL(request.url).pathname)).toEqual(
      Array(3).fill("/api/2.1/store"),
    );
  });

  it("sends the search parameters with every page", async () => {
    const server = store(drills(4));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
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
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toHaveLength(10);
    expect(server.requests).toHaveLength(2);
  });

  it("makes one request for an empty result", async () => {
    const server = store([]);
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("stops at an empty page when the server claims more than it has", async () => {
    const server = store(drills(7), 1_000_000);
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }))).toHaveLength(7);
    expect(server.requests).toHaveLength(3);
  });

  it("stops at total when the server sends more entries than it counts", async () => {
    const server = recordingFetch(() => json({ total: 3, drills: drills(10) }));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }));
    expect(seen.map((entry) => entry.id)).toEqual(["drill-0", "drill-1", "drill-2"]);
    expect(server.requests).toHaveLength(1);
  });

  it("yields each entry once and ends when a server repeats the same page", async () => {
    const server = recordingFetch(() => json({ total: 10, drills: drills(5) }));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    const seen = await collect(paginateStore(client, { query: "x" }, { pageSize: 5 }));
    expect(seen.map((entry) => entry.id)).toEqual(drills(5).map((entry) => entry.id));
    expect(server.requests).toHaveLength(2);
  });

  it("accepts a total sent as a string of digits", async () => {
    const server = store(drills(6), "6");
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 4 }))).toHaveLength(6);
  });

  it("sends no further request when the caller stops early", async () => {
    const server = store(drills(50));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
    let count = 0;
    for await (const _entry of paginateStore(client, { query: "x" }, { pageSize: 10 })) {
      if (++count === 12) break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it("works with a throwing client", async () => {
    const server = store(drills(3));
    const client = createDrillClient({
      baseUrl: BASE_URL,
      fetch: server.fetch,
      retry: false,
      throwOnError: true,
    });
    expect(await collect(paginateStore(client, { query: "x" }, { pageSize: 2 }))).toHaveLength(3);
  });

  it("rejects with DrillApiError when a page fails", async () => {
    const server = recordingFetch(
      () => json({ total: 4, drills: drills(2) }),
      () => json({ ID: "error" }, { status: 500 }),
    );
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
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

  it.each([
    ["a body that is not an object", []],
    ["a missing total", { drills: [] }],
    ["a negative total", { total: -1, drills: [] }],
    ["a fractional total", { total: 1.5, drills: [] }],
    ["drills that are not an array", { total: 1, drills: "none" }],
  ])("rejects %s with DrillUnexpectedResponseError", async (_label, body) => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => json(body), retry: false });
    const error = await collect(paginateStore(client, { query: "x" }, { pageSize: 2 })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DrillUnexpectedResponseError);
    expect(error).toMatchObject({ code: "ERR_UNEXPECTED_RESPONSE", body });
  });

  it.each([0, -1, 2.5, Number.NaN])("refuses pageSize %s", (pageSize) => {
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: async () => json({}), retry: false });
    expect(() => paginateStorePages(client, { query: "x" }, { pageSize })).toThrow(DrillInvalidOptionError);
    expect(() => paginateStore(client, { query: "x" }, { pageSize })).toThrow(/Invalid option pageSize/);
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const server = store(drills(10));
    const client = createDrillClient({ baseUrl: BASE_URL, fetch: server.fetch, retry: false });
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
