import { request } from "node:http";
import { beforeAll, describe, expect, it } from "vitest";
import { client, sharedSandbox, tokenFor } from "./helpers.js";

const shared = sharedSandbox();
let api: ReturnType<typeof client>;
let token: string;

beforeAll(async () => {
  token = await tokenFor(shared(), "u-ana");
  api = client(shared(), token);
});

/** Sends raw bytes as the path, which fetch would normalise. */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(shared().url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "GET",
        headers: { authorization: `Bearer ${token}` },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("routing", () => {
  it("answers 404 not_found to a path the description does not have", async () => {
    const res = await api("GET", "/api/3/store");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      ID: "not_found",
      message: "no operation is described for the path /api/3/store",
    });
    expect((await api("GET", "/api/2.1/store/")).status).toBe(404);
  });

  it("answers 405 with Allow to a method the path does not have", async () => {
    const res = await api("DELETE", "/api/2.1/store");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(res.body).toMatchObject({ ID: "method_not_allowed" });
    const repertoire = await api("POST", "/api/2.1/repertoire/es-animals");
    expect(repertoire.headers.get("allow")).toBe("PUT, DELETE");
  });

  it("prefers literal segments over parameters", async () => {
    // /api/2.1/store/recent is its own (unsimulated) operation, not /api/2.1/store/related/{drill}.
    const recent = await api("GET", "/api/2.1/store/recent");
    expect((recent.body as { operationId: string }).operationId).toMatch(/Recent/);
    const related = await api("GET", "/api/2.1/store/related/es-animals");
    expect((related.body as { operationId: string }).operationId).toMatch(/Related/);
  });

  it("decodes path parameters", async () => {
    const res = await api("GET", `/api/2.1/rendition/${encodeURIComponent("no such/drill é")}`);
    expect(res.status).toBe(404);
    expect((res.body as { message: string }).message).toContain("no such/drill é");
  });

  it("answers 400 to bad percent-encoding in the path", async () => {
    const res = await rawGet("/api/2.1/rendition/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ID: "invalid_request" });
  });

  it("answers 400 to a request target that is not a path", async () => {
    const res = await rawGet("*");
    expect(res.status).toBe(400);
  });
});

describe("parameters", () => {
  it("names the parameter and the rule it breaks", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&resultSize=ten");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      ID: "invalid_request",
      message: 'query parameter "resultSize": must match pattern "^[0-9]+$"',
      parameter: "resultSize",
    });
  });

  it("checks enum values of array items", async () => {
    const res = await api("GET", "/api/2/store?query=dog&searchField=NAME&searchField=TITLE");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ ID: "invalid_request", parameter: "searchField" });
    expect((res.body as { message: string }).message).toMatch(
      /query parameter "searchField" at \/1: must be one of "NAME"/,
    );
  });

  it("refuses a repeated parameter that is not an array", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&query=cat");
    expect(res.body).toEqual({
      ID: "invalid_request",
      message: 'query parameter "query": must not be repeated',
      parameter: "query",
    });
  });

  it("refuses query parameters the operation does not define", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&limit=5");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ parameter: "limit" });
  });

  it("reads repeated keys as arrays", async () => {
    const res = await api("GET", "/api/2/question?drill=es-animals&drill=fr-animals");
    expect(res.status).toBe(200);
  });
});

describe("bodies", () => {
  it("answers 415 to an unsupported content type", async () => {
    const res = await api("PUT", "/api/2.1/answer/abc", {
      body: "value=dog",
      headers: { "content-type": "text/plain" },
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ ID: "unsupported_media_type" });
    expect((res.body as { message: string }).message).toContain("application/json");
  });

  it("answers 415 to a charset other than UTF-8", async () => {
    const res = await api("PUT", "/api/2.1/answer/abc", {
      body: { value: "dog" },
      headers: { "content-type": "application/json; charset=latin1" },
    });
    expect(res.status).toBe(415);
  });

  it("answers 400 to malformed JSON", async () => {
    const res = await fetch(`${shared().url}/api/2.1/answer/abc`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: '{"value": "dog"',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ID: "invalid_request",
      message: expect.stringMatching(/not valid JSON/),
    });
  });

  it("answers 400 to a body on an operation that takes none", async () => {
    const res = await api("DELETE", "/api/2.1/repertoire/es-animals", { body: { a: 1 } });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toBe(
      "request body: removeFromRepertoire_v2_1 takes none",
    );
  });

  it("answers 413 to a body over 1 MiB and stays up", async () => {
    const res = await fetch(`${shared().url}/api/2.1/answer/abc`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ value: "x".repeat(1024 * 1024 + 10) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ ID: "payload_too_large" });
    expect((await api("GET", "/api/2.1/version")).status).toBe(200);
  });

  it("answers 413 to a chunked body over 1 MiB", async () => {
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 5) controller.close();
        else {
          sent++;
          controller.enqueue(chunk);
        }
      },
    });
    const res = await fetch(`${shared().url}/api/2.1/answer/abc`, {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
  });

  it("never answers 500 to junk", async () => {
    const junk = [
      ["PUT", "/api/2.1/answer/%00", "\u0000\u0001"],
      ["PUT", "/api/2/answer/x", "[1,2,"],
      ["PUT", "/api/2/answer/x", "null"],
      ["PUT", "/api/2/answer/x", '"just a string"'],
      ["PUT", "/api/2/answer/x", '{"value": 42}'],
      ["PUT", "/api/2/answer/x", '{"__proto__": {"polluted": true}}'],
      ["GET", "/api/2.1/store?query=%FF%FE", undefined],
      ["GET", `/api/2.1/store?query=${"a".repeat(6000)}`, undefined],
      ["GET", "/api/2.1/store?catalog=&query=", undefined],
      ["GET", "/api/2.1/question/%20", undefined],
    ] as const;
    for (const [method, path, body] of junk) {
      const res = await fetch(`${shared().url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body }),
      });
      expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      await res.arrayBuffer();
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
