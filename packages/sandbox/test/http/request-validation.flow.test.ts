import { connect } from "node:net";
import { beforeAll, describe, expect, it } from "vitest";
import { client, expectRefused, httpOnly, sharedSandbox, tokenFor } from "../support/helpers.js";
import { rawRequest } from "../support/raw-http.js";

const shared = sharedSandbox();
let api: ReturnType<typeof client>;
let token: string;

beforeAll(async () => {
  token = await tokenFor(shared(), "u-ana");
  api = client(shared(), token);
});

/** Sends a body as given (`api` would encode it as form fields), with Ana's token. */
function sendAsAna(
  method: string,
  path: string,
  body: RequestInit["body"],
  contentType?: string,
  init: RequestInit = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (contentType !== undefined) headers["content-type"] = contentType;
  return shared().fetch(`${shared().url}${path}`, {
    ...init,
    method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** Sends raw bytes as the path, which fetch would normalise. */
function rawGet(path: string, method = "GET"): Promise<{ status: number; body: string }> {
  return rawRequest(shared().url, { path, method, headers: { authorization: `Bearer ${token}` } });
}

describe("routing", () => {
  it("answers 404 not_found to a path the description does not have", async () => {
    const res = await api("GET", "/api/3/store");
    expect(res.status).toBe(404);
    const text = "no operation is described for the path /api/3/store";
    expect(res.body).toEqual({ ID: "not_found", id: "not_found", description: text, message: text });
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

  httpOnly("answers 400 to bad percent-encoding in the path", async () => {
    const res = await rawGet("/api/2.1/rendition/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ ID: "invalid_request" });
  });

  httpOnly("answers 400 to a request target that is not a path", async () => {
    const res = await rawGet("*");
    expect(res.status).toBe(400);
  });

  httpOnly("routes the target as sent, without resolving dot segments", async () => {
    const res = await rawGet("/api/2.1/store/../version");
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({
      description: "no operation is described for the path /api/2.1/store/../version",
    });
  });

  httpOnly("names a method a Request cannot carry (TRACE) in its 405", async () => {
    const res = await rawGet("/api/2.1/version", "TRACE");
    expect(res.status).toBe(405);
    expect(JSON.parse(res.body)).toMatchObject({
      description: "method TRACE is not described for /api/2.1/version; allowed: GET, HEAD",
    });
  });
});

describe("parameters", () => {
  it("names the parameter and the rule it breaks", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&resultSize=ten");
    expect(res.status).toBe(400);
    const text = 'query parameter "resultSize": must match pattern "^[0-9]+$"';
    expect(res.body).toEqual({
      ID: "invalid_request",
      id: "invalid_request",
      description: text,
      message: text,
      parameter: "resultSize",
    });
  });

  it("checks enum values of array items", async () => {
    const res = await api("GET", "/api/2/store?query=dog&searchField=NAME&searchField=TITLE");
    expectRefused(res, 400, "invalid_request", "searchField");
    expect((res.body as { description: string }).description).toMatch(
      /query parameter "searchField" at \/1: must be one of "NAME"/,
    );
  });

  it("refuses a repeated parameter that is not an array", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&query=cat");
    expect(res.body).toMatchObject({
      ID: "invalid_request",
      description: 'query parameter "query": must not be repeated',
      parameter: "query",
    });
  });

  it("refuses query parameters the operation does not define", async () => {
    const res = await api("GET", "/api/2.1/store?query=dog&limit=5");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ parameter: "limit" });
  });

  it("answers 400 to malformed percent-encoding in the query, naming it", async () => {
    for (const query of ["query=%zz", "query=dog%2", "query=%FF%FE", "qu%ery=dog"]) {
      const res = await api("GET", `/api/2.1/store?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toMatchObject({ ID: "invalid_request", parameter: "query" });
      expect((res.body as { description: string }).description, query).toMatch(
        /^query string: .* is not valid percent-encoding/,
      );
    }
    // Well-formed escapes, UTF-8 included, still pass.
    expect((await api("GET", "/api/2.1/store?query=caf%C3%A9+cr%C3%A8me")).status).toBe(200);
  });

  it("says so when a number is too long to be one", async () => {
    const digits = "9".repeat(400);
    const res = await api("GET", `/api/2.1/store?query=dog&resultStart=${digits}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ parameter: "resultStart" });
    expect((res.body as { description: string }).description).toBe(
      `resultStart: too long to be a number (400 digits; at most ${Number.MAX_SAFE_INTEGER})`,
    );
    // The largest exact value is still a number.
    const edge = await api("GET", `/api/2.1/store?query=dog&resultStart=${Number.MAX_SAFE_INTEGER}`);
    expect(edge.status).toBe(200);
  });

  it("reads repeated keys as arrays", async () => {
    const res = await api("GET", "/api/2/question?drill=es-animals&drill=fr-animals");
    expect(res.status).toBe(200);
  });
});

describe("bodies", () => {
  it("answers 415 to an unsupported content type, naming the form type the service takes", async () => {
    const res = await sendAsAna("PUT", "/api/2.1/answer/abc", "answer=dog", "text/plain");
    expect(res.status).toBe(415);
    const body = (await res.json()) as { ID: string; description: string };
    expect(body.ID).toBe("unsupported_media_type");
    expect(body.description).toBe(
      "Content-Type: must be application/x-www-form-urlencoded for submitAnswer_v2_1",
    );
  });

  it("answers 415 to JSON, which the description no longer offers for any body", async () => {
    const res = await api("PUT", "/api/2/answer/abc", { json: { answer: "dog" } });
    expect(res.status).toBe(415);
  });

  it("answers 415 to a charset other than UTF-8", async () => {
    const res = await api("PUT", "/api/2.1/answer/abc", {
      body: { answer: "dog" },
      headers: { "content-type": "application/x-www-form-urlencoded; charset=latin1" },
    });
    expect(res.status).toBe(415);
  });

  it("takes form fields with a charset parameter, as fetch sends URLSearchParams", async () => {
    const res = await sendAsAna(
      "PUT",
      "/api/2/answer/no-such-reference",
      new URLSearchParams({ answer: "dog" }),
    );
    // Past every check of the body: the reference itself is unknown.
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ ID: "reference_not_found" });
  });

  it("answers 400 to a form body with malformed percent-encoding", async () => {
    const res = await sendAsAna(
      "PUT",
      "/api/2/answer/abc",
      "answer=%E9t%E9",
      "application/x-www-form-urlencoded",
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ID: "invalid_request",
      parameter: "body",
      description: expect.stringMatching(/^request body: .* is not valid percent-encoding/),
    });
  });

  it("checks form fields against the description: the 2.0 answer needs the field answer", async () => {
    const res = await api("PUT", "/api/2/answer/abc", { body: { value: "dog" } });
    expectRefused(res, 400, "invalid_request", "body");
    expect((res.body as { description: string }).description).toMatch(/must have required property 'answer'/);
  });

  it("answers 400 to a body on an operation that takes none", async () => {
    const res = await api("DELETE", "/api/2.1/repertoire/es-animals", { body: { a: "1" } });
    expect(res.status).toBe(400);
    expect((res.body as { description: string }).description).toBe(
      "request body: removeFromRepertoire_v2_1 takes none",
    );
  });

  httpOnly("answers 411 to a PUT without Content-Length, and takes Content-Length: 0", async () => {
    // Raw bytes over a socket: fetch and node:http both add a length header by themselves.
    const put = (extraHeader: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(shared().url);
        const socket = connect(Number(url.port), url.hostname);
        let text = "";
        socket.setEncoding("utf8");
        socket.on("data", (chunk: string) => {
          text += chunk;
        });
        socket.on("error", reject);
        socket.on("end", () => {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
          resolve({ status, body: text.slice(text.indexOf("\r\n\r\n") + 4) });
        });
        socket.end(
          `PUT /api/2.1/repertoire/es-animals HTTP/1.1\r\nHost: ${url.host}\r\n` +
            `Authorization: Bearer ${token}\r\nConnection: close\r\n${extraHeader}\r\n`,
        );
      });
    const bare = await put("");
    expect(bare.status).toBe(411);
    expect(JSON.parse(bare.body)).toMatchObject({
      ID: "length_required",
      id: "length_required",
      description: "Content-Length: required on PUT, also without a body (send Content-Length: 0)",
    });
    expect((await put("Content-Length: 0\r\n")).status).toBe(200);
  });

  it("lets a multipart upload through to the operation (501: not simulated), not 415", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([0, 159, 146, 150])]), "drill.xlsx");
    const res = await sendAsAna("POST", "/api/2.1/drills/upload", form);
    expect(res.status).toBe(501);
    expect(await res.json()).toMatchObject({ ID: "not_simulated", operationId: "uploadDrill_v2_1" });
    const noBoundary = await sendAsAna("POST", "/api/2.1/drills/upload", "--x--", "multipart/form-data");
    expect(noBoundary.status).toBe(400);
    expect(await noBoundary.json()).toMatchObject({
      description: "Content-Type: multipart/form-data needs a boundary parameter",
    });
  });

  it("answers 413 to a body over 1 MiB and stays up", async () => {
    const res = await sendAsAna(
      "PUT",
      "/api/2.1/answer/abc",
      `answer=${"x".repeat(1024 * 1024 + 10)}`,
      "application/x-www-form-urlencoded",
    );
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
    const res = await sendAsAna("PUT", "/api/2.1/answer/abc", stream, "application/x-www-form-urlencoded", {
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
      ["PUT", "/api/2/answer/x", "__proto__[polluted]=true&answer=1"],
      ["PUT", "/api/2/answer/x", "__proto__=x&constructor=y"],
      ["PUT", "/api/2/answer/x", "answer=%"],
      ["GET", "/api/2.1/store?query=%FF%FE", undefined],
      ["GET", `/api/2.1/store?query=${"a".repeat(6000)}`, undefined],
      ["GET", "/api/2.1/store?catalog=&query=", undefined],
      ["GET", "/api/2.1/question/%20", undefined],
    ] as const;
    for (const [method, path, body] of junk) {
      for (const contentType of ["application/json", "application/x-www-form-urlencoded"]) {
        const res = await sendAsAna(method, path, body, contentType);
        expect(res.status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        await res.arrayBuffer();
      }
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
