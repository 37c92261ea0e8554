/**
 * Example answers: operations that are not simulated but whose success answer the description types
 * answer an example of it (the page's example where there is one), marked with `Drill-Sandbox-Example`,
 * after checking the request against the observed fields.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { bundledSpec } from "../../src/http/bundled-spec.js";
import { listOperations } from "../../src/http/openapi.js";
import {
  EXAMPLE_HEADER,
  exampleAnsweredOperations,
  type OpenApiDocument,
  SIMULATED_OPERATIONS,
} from "../../src/index.js";
import { client, start, tokenFor } from "../support/helpers.js";

type Json = Record<string, unknown>;

const USER_PAGE = { id: "u-42", name: "Ana Example", emailAddress: "ana@example.com", locale: "es" };

/**
 * The packaged description with two unsimulated operations typed the way the spec types observed
 * answers: a GET without parameters answering a user with a page example, and a 2.1 POST with a form.
 */
async function typedSpec(): Promise<{
  doc: OpenApiDocument;
  read: { path: string; id: string };
  write: { method: string; path: string; id: string };
}> {
  const doc = structuredClone(bundledSpec()) as unknown as Json & {
    paths: Record<string, Record<string, Json>>;
    components: Record<string, Record<string, unknown>>;
  };
  doc.components.schemas = {
    ...doc.components.schemas,
    TestUser: {
      type: "object",
      required: ["id", "name"],
      properties: {
        id: { type: "string" },
        name: { type: "string" },
        emailAddress: { type: "string", format: "email" },
        locale: { type: "string" },
      },
    },
    TestForm: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
  };
  doc.components.examples = { ...doc.components.examples, TestUser: { summary: "page", value: USER_PAGE } };
  // Any GET the sandbox does not simulate, without path parameters or required query parameters.
  const read = listOperations(doc as unknown as OpenApiDocument).find(
    (op) =>
      op.method === "GET" &&
      !op.path.includes("{") &&
      // API 2.1.1 answers 501 whatever its examples, until the sandbox simulates it.
      !op.path.startsWith("/api/2.1.1/") &&
      !op.parameters.some((p) => p.in === "query" && p.required) &&
      !(op.operationId in SIMULATED_OPERATIONS),
  );
  if (!read) throw new Error("no GET to type");
  const user = doc.paths[read.path]?.get as Json;
  user.responses = {
    "2XX": {
      description: "the user",
      "x-observed": { source: "REF …/api/2/endpoints/get-user", note: "The user." },
      content: {
        "application/json": {
          schema: { $ref: "#/components/schemas/TestUser" },
          examples: { page: { $ref: "#/components/examples/TestUser" } },
        },
      },
    },
    default: (user.responses as Json).default,
  };
  // A 2.1 write with a form body whose field `name` is required, answering a message with no example.
  const write = listOperations(doc as unknown as OpenApiDocument).find(
    (op) =>
      op.method === "POST" && op.path.startsWith("/api/2.1/") && !(op.operationId in SIMULATED_OPERATIONS),
  );
  if (!write) throw new Error("no POST to type");
  const raw = doc.paths[write.path]?.post as Json;
  raw.requestBody = {
    content: { "application/x-www-form-urlencoded": { schema: { $ref: "#/components/schemas/TestForm" } } },
  };
  raw.responses = {
    "2XX": {
      description: "done",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Message" } } },
    },
    default: (raw.responses as Json).default,
  };
  return {
    doc: doc as unknown as OpenApiDocument,
    read: { path: read.path, id: read.operationId },
    write: { method: write.method, path: write.path.replace(/\{[^}]+\}/g, "x1"), id: write.operationId },
  };
}

describe("example answers", () => {
  let spec: Awaited<ReturnType<typeof typedSpec>>;
  beforeAll(async () => {
    spec = await typedSpec();
  });

  it("answers the page's example, marked as an example, instead of 501", async () => {
    const sandbox = await start({ spec: spec.doc });
    const api = client(sandbox, await tokenFor(sandbox));
    const res = await api("GET", spec.read.path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(USER_PAGE);
    expect(res.headers.get(EXAMPLE_HEADER)).toBe("page-example; name=TestUser");
    // Still authenticated and validated first.
    expect((await client(sandbox, undefined)("GET", spec.read.path)).status).toBe(401);
    expect((await api("GET", `${spec.read.path}?nonsense=1`)).status).toBe(400);
  });

  it("answers a 2.1.1 operation it does not simulate with 501 not_simulated, never an example", async () => {
    const sandbox = await start();
    const api = client(sandbox, await tokenFor(sandbox));
    // A user's contract: its page names a Contract object without showing a field of it.
    const res = await api("GET", "/api/2.1.1/user/self/contract");
    expect(res.status).toBe(501);
    expect(res.body).toMatchObject({ ID: "not_simulated" });
    expect(res.headers.get(EXAMPLE_HEADER)).toBeNull();
    const rows = await exampleAnsweredOperations(bundledSpec());
    expect(Object.keys(rows).filter((id) => id.endsWith("_v2_1_1"))).toEqual([]);
  });

  it("builds a schema-valid example where the description has none, and checks required fields", async () => {
    const sandbox = await start({ spec: spec.doc });
    const api = client(sandbox, await tokenFor(sandbox));
    const { method, path } = spec.write;
    const missing = await api(method, path, { headers: { "content-length": "0" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ID: "invalid_request", id: "invalid_request", parameter: "body" });
    expect((missing.body as { description: string }).description).toMatch(/name/);
    const wrong = await api(method, path, { body: { title: "x" } });
    expect(wrong).toMatchObject({ status: 400, body: { ID: "invalid_request" } });
    const ok = await api(method, path, { body: { name: "Year 9" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ description: expect.any(String) });
    expect(ok.headers.get(EXAMPLE_HEADER)).toBe("built-from-schema; schema=Message");
  });

  it("lets a response rule override the example", async () => {
    const sandbox = await start({
      spec: spec.doc,
      responses: [{ operationId: spec.read.id, status: 200, body: { id: "u-rule", name: "Rule" } }],
    });
    const api = client(sandbox, await tokenFor(sandbox));
    const res = await api("GET", spec.read.path);
    expect(res).toMatchObject({ status: 200, body: { id: "u-rule", name: "Rule" } });
    expect(res.headers.get(EXAMPLE_HEADER)).toBeNull();
  });

  it("does not hand one caller's changes to the next", async () => {
    const sandbox = await start({ spec: spec.doc });
    const api = client(sandbox, await tokenFor(sandbox));
    const first = (await api("GET", spec.read.path)).body as Json;
    first.name = "changed";
    expect(((await api("GET", spec.read.path)).body as Json).name).toBe(USER_PAGE.name);
  });

  it("lists what it answers with examples for the support table", async () => {
    const rows = await exampleAnsweredOperations(spec.doc);
    expect(rows[spec.read.id]).toMatch(/example of its reference page/);
    expect(rows[spec.write.id]).toMatch(/built from its answer schema/);
    for (const id of Object.keys(SIMULATED_OPERATIONS)) expect(rows).not.toHaveProperty(id);
  });
});

describe("example answers of the packaged description", () => {
  it("answers every typed, unsimulated operation with a valid example", { timeout: 60_000 }, async () => {
    const doc = bundledSpec();
    const rows = await exampleAnsweredOperations(doc);
    const sandbox = await start();
    const api = client(sandbox, await tokenFor(sandbox, "u-ana"));
    for (const op of listOperations(doc).filter((o) => o.operationId in rows)) {
      const query = op.parameters
        .filter((p) => p.in === "query" && p.required)
        .map((p) => `${p.name}=x1`)
        .join("&");
      const path = op.path.replace(/\{[^}]+\}/g, "x1");
      const res = await api(op.method, query ? `${path}?${query}` : path, {
        headers: op.method === "PUT" || op.method === "POST" ? { "content-length": "0" } : {},
      });
      // 400 only where required form fields are missing (the page's own `<field>_missing` where it
      // names one, else invalid_request); otherwise the example, valid (start() checks).
      if (res.status === 400) {
        const { ID, description } = res.body as { ID: string; description: string };
        const named = op.errors.some((e) => e.id === ID);
        expect(
          ID === "invalid_request" || (named && /_missing$|^missing_/.test(ID)),
          `${op.operationId}: ${ID}`,
        ).toBe(true);
        expect(description, op.operationId).toMatch(/^(request body|query parameter)/);
      } else {
        expect(res.status, op.operationId).toBeLessThan(300);
        expect(res.headers.get(EXAMPLE_HEADER), op.operationId).not.toBeNull();
      }
    }
  });

  it("answers GET /api/2/user with the page's fields, from the state, valid against its type", async () => {
    const doc = bundledSpec() as unknown as Json & {
      components: Record<string, Record<string, Json>>;
    };
    const operation = listOperations(doc as unknown as OpenApiDocument).find(
      (o) => o.method === "GET" && o.path === "/api/2/user",
    );
    const response = operation?.responses.find((r) => /^2/.test(r.status));
    const pointer = response?.content.find((m) => m.mediaType === "application/json")?.schemaPointer;
    const schemaRef = pointer
      ? (
          pointer
            .split("/")
            .slice(1)
            .reduce<unknown>((n, k) => (n as Json)?.[k.replaceAll("~1", "/")], doc) as Json
        )?.$ref
      : undefined;
    // The acceptance case: the description types it, so a skip would hide a regression.
    expect(schemaRef).toBe("#/components/schemas/User_v2_0");
    if (typeof schemaRef !== "string") return;
    const schema = doc.components.schemas?.[schemaRef.split("/").pop() ?? ""] as Json;
    const sandbox = await start();
    const res = await client(sandbox, await tokenFor(sandbox, "u-ana"))("GET", "/api/2/user");
    expect(res.status).toBe(200);
    // Simulated by the users family: Ana's own account, not the page's example.
    expect(res.headers.get(EXAMPLE_HEADER)).toBeNull();
    expect(res.body).toMatchObject({ id: "u-ana", name: "Ana", emailAddress: "ana@academy.test" });
    for (const field of ["id", "name", "emailAddress"]) {
      expect(Object.keys((schema.properties ?? {}) as Json), "the schema names the page's fields").toContain(
        field,
      );
      expect(res.body, field).toHaveProperty(field);
    }
    const ajv = new Ajv2020.default({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addSchema(doc, "doc");
    const validate = ajv.compile({ $ref: `doc#${pointer}` });
    expect(validate(res.body), ajv.errorsText(validate.errors)).toBe(true);
  });
});
