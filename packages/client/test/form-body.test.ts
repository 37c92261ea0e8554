/**
 * Request bodies on the wire: form fields (lists as repeated fields), multipart for uploads, JSON only
 * on request, and Content-Length: 0 on a PUT or POST without a body. Checked on a real loopback server,
 * because what reaches the socket (lengths, chunking, content types) is fetch's doing, not ours.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formAwareRequest, serializeRequestBody } from "../src/form-body.js";
import {
  type CreateCourseForm_v2_1,
  createDrillClient,
  DrillInvalidParameterError,
  encodeFormFields,
} from "../src/index.js";

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const received: Received[] = [];
let baseUrl = "";
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    received.push({
      method: req.method ?? "",
      url: req.url ?? "",
      headers: req.headers,
      body: Buffer.concat(chunks),
    });
    res.writeHead(200, { "content-type": "application/json" });
    res.end("{}");
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function last<T>(call: () => Promise<T>): Promise<Received> {
  const before = received.length;
  await call();
  expect(received.length).toBe(before + 1);
  return received[received.length - 1] as Received;
}

const client = () => createDrillClient({ baseUrl, retry: false });

describe("form bodies on the wire", () => {
  it("sends the answer as a form field, and several values as the field repeated", async () => {
    const one = await last(() =>
      client().PUT("/api/2/answer/{reference}", {
        params: { path: { reference: "q-1" } },
        body: { answer: ["la casa"] },
      }),
    );
    expect(one.method).toBe("PUT");
    expect(one.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(one.body.toString()).toBe("answer=la+casa");
    expect(one.headers["content-length"]).toBe(String(one.body.length));

    const values = ["rojo", "verde", "añil & co"];
    const several = await last(() =>
      client().PUT("/api/2/answer/{reference}", {
        params: { path: { reference: "q-2" } },
        body: { answer: values },
      }),
    );
    expect(several.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(new URLSearchParams(several.body.toString()).getAll("answer")).toEqual(values);
  });

  it("sends open form bodies of other operations the same way, numbers and booleans as text", async () => {
    // Fields the page does not name go out through the caller's own type, passed as the form.
    const form: CreateCourseForm_v2_1 & { public: boolean; size: number; tag: string[] } = {
      name: "Basics",
      description: "Intro",
      public: true,
      size: 3,
      tag: ["a", "b"],
    };
    const sent = await last(() => client().POST("/api/2.1/courses", { body: form as CreateCourseForm_v2_1 }));
    expect(sent.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent.body.toString()).toBe("name=Basics&description=Intro&public=true&size=3&tag=a&tag=b");
  });

  it("sends Content-Length: 0 and no Content-Type on a PUT or POST without a body", async () => {
    const put = await last(() =>
      client().PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: "es-verbs" } } }),
    );
    expect(put.headers["content-length"]).toBe("0");
    expect(put.headers["transfer-encoding"]).toBeUndefined();
    expect(put.headers["content-type"]).toBeUndefined();
    const post = await last(() =>
      client().POST("/api/2.1/user/{user}/email-address/{email}/request-verification", {
        params: { path: { user: "u-1", email: "ana@example.org" } },
      }),
    );
    expect(post.headers["content-length"]).toBe("0");
  });

  it("keeps Content-Length: 0 on an empty PUT through middleware and auth", async () => {
    const withAuth = createDrillClient({
      baseUrl,
      retry: false,
      auth: {
        middleware: {
          onRequest({ request }) {
            request.headers.set("Authorization", "OAuth t0ken");
            return request;
          },
        },
      },
    });
    const put = await last(() =>
      withAuth.PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: "x" } } }),
    );
    expect(put.headers["content-length"]).toBe("0");
    expect(put.headers.authorization).toBe("OAuth t0ken");
  });

  it("sends no Content-Type with a GET", async () => {
    const get = await last(() => client().GET("/api/2.1/version"));
    expect(get.headers["content-type"]).toBeUndefined();
  });

  it("uploads FormData as multipart/form-data with its boundary", async () => {
    const form = new FormData();
    form.append("file", new Blob(["ask;tell\nperro;dog\n"], { type: "text/csv" }), "animals.csv");
    const sent = await last(() => client().POST("/api/2.1/drills/upload", { body: form }));
    const type = sent.headers["content-type"] ?? "";
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    const boundary = type.slice(type.indexOf("boundary=") + "boundary=".length);
    expect(sent.body.toString()).toContain(`--${boundary}`);
    expect(sent.body.toString()).toContain("perro;dog");
  });

  it("sends JSON only when the caller's headers ask for it", async () => {
    const sent = await last(() =>
      client().POST("/api/2.1/courses", {
        body: { name: "Basics", description: "Intro" },
        headers: { "Content-Type": "application/json" },
      }),
    );
    expect(sent.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent.body.toString())).toEqual({ name: "Basics", description: "Intro" });
  });
});

describe("form encoding rules", () => {
  it("repeats list fields, drops undefined and null, and names a field it cannot encode", () => {
    expect(encodeFormFields({ a: ["x", 1, false], b: undefined, c: null, d: "" }).toString()).toBe(
      "a=x&a=1&a=false&d=",
    );
    const nested = () => encodeFormFields({ answer: { value: "dog" } });
    expect(nested).toThrow(DrillInvalidParameterError);
    expect(nested).toThrow("Invalid parameter body.answer: a form field takes a string, number or boolean");
    expect(() => encodeFormFields({ answer: [["a"]] })).toThrow(/body\.answer\[0\].*nested list/);
  });

  it("passes FormData, URLSearchParams and strings through, refuses other objects", () => {
    const form = new FormData();
    expect(serializeRequestBody(form)).toBe(form);
    const search = new URLSearchParams("a=1");
    expect(serializeRequestBody(search)).toBe(search);
    expect(serializeRequestBody("a=1")).toBe("a=1");
    expect(() => serializeRequestBody(new Date())).toThrow(DrillInvalidParameterError);
    expect(serializeRequestBody([1, 2], new Headers({ "content-type": "application/json" }))).toBe("[1,2]");
  });

  it("gives a URLSearchParams body the form content type, whatever default was set", () => {
    const FormRequest = formAwareRequest();
    const request = new FormRequest("http://127.0.0.1/x", {
      method: "PUT",
      headers: { "Content-Type": "application/json", "X-Kept": "yes" },
      body: new URLSearchParams({ answer: "dog" }),
    });
    expect(request.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(request.headers.get("x-kept")).toBe("yes");
    const json = new FormRequest("http://127.0.0.1/x", {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.headers.get("content-type")).toBe("application/json");
  });
});
