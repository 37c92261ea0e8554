/**
 * Response validation mode, against a small hand-written description whose response schemas the
 * sandbox's answers deliberately break.
 */
import { describe, expect, it } from "vitest";
import type { OpenApiDocument, ResponseValidationError } from "../../src/index.js";
import { SpecInvalidError } from "../../src/index.js";
import { client, expectRefused, open, SMALL_DATA, tokenFor } from "../support/helpers.js";

const json = (schema: unknown) => ({ description: "", content: { "application/json": { schema } } });

function fixture(): OpenApiDocument {
  return {
    openapi: "3.1.0",
    info: { title: "fixture", version: "1" },
    security: [{ bearerAuth: [] }],
    paths: {
      "/.well-known/oauth-authorization-server": {
        get: {
          operationId: "getAuthorizationServerMetadata",
          security: [],
          responses: { "200": json({ $ref: "#/components/schemas/Metadata" }) },
        },
      },
      "/daas/oauth/token": {
        post: {
          operationId: "exchangeToken",
          security: [],
          requestBody: {
            required: true,
            content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } },
          },
          responses: { "2XX": json({ type: "object" }), default: json({}) },
        },
      },
      // The sandbox's version body has no field `backend`: every answer is a violation.
      "/api/2.1/version": {
        get: {
          operationId: "getVersion_v2_1",
          responses: { "200": json({ type: "object", required: ["backend"] }), default: json({}) },
        },
      },
      "/api/2.1/notifications": {
        get: {
          operationId: "listNotifications_v2_1",
          responses: { "200": json({ type: "array", maxItems: 0 }) },
        },
      },
      // Only 200 is documented, so the 400 `query_missing` is a violation.
      "/api/2.1/store": {
        get: {
          operationId: "searchStore_v2_1",
          parameters: [{ name: "query", in: "query", schema: { type: "string" } }],
          responses: { "200": json({ $ref: "#/components/schemas/Drillables" }) },
        },
      },
    },
    components: {
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer" } },
      schemas: {
        Metadata: {
          type: "object",
          required: ["token_endpoint"],
          properties: { token_endpoint: { type: "string" } },
        },
        Drillables: {
          type: "object",
          required: ["total", "drills"],
          properties: { total: { type: "integer" }, drills: { type: "array" } },
        },
      },
    },
  } as unknown as OpenApiDocument;
}

describe("response validation mode", () => {
  it("turns a response that breaks its schema into a loud 500 and records it", async () => {
    const seen: ResponseValidationError[] = [];
    const sandbox = await open({
      spec: fixture(),
      data: SMALL_DATA,
      validateResponses: true,
      onResponseViolation: (e) => seen.push(e),
    });
    try {
      const api = client(sandbox, await tokenFor(sandbox));
      expect((await api("GET", "/api/2.1/notifications")).status).toBe(200);
      expect((await api("GET", "/api/2.1/store?query=dog")).status).toBe(200);
      expect(sandbox.responseViolations).toEqual([]);

      const version = await api("GET", "/api/2.1/version");
      expectRefused(version, 500, "sandbox_response_invalid");
      expect(seen.at(-1)?.message).toMatch(
        /^response of getVersion_v2_1 with status 200 does not match the OpenAPI description: response body: must have required property 'backend'/,
      );

      const missing = await api("GET", "/api/2.1/store");
      expect(missing.status).toBe(500);
      expect(seen.at(-1)?.message).toContain("status 400 is not documented for searchStore_v2_1");
      expect(sandbox.responseViolations).toHaveLength(2);
      expect(seen).toHaveLength(2);
    } finally {
      await sandbox.close();
    }
  });

  it("sends responses unchecked when the mode is off", async () => {
    const sandbox = await open({ spec: fixture(), data: SMALL_DATA });
    try {
      const api = client(sandbox, await tokenFor(sandbox));
      expect((await api("GET", "/api/2.1/version")).status).toBe(200);
      expect((await api("GET", "/api/2.1/store")).status).toBe(400);
      expect(sandbox.responseViolations).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it("answers 501 for operations of the description it has no code for", async () => {
    const doc = fixture() as unknown as { paths: Record<string, unknown> };
    doc.paths["/api/2.1/test-score-transformers"] = {
      get: {
        operationId: "listTestScoreTransformers_v2_1",
        "x-undocumented": ["response body"],
        responses: { default: json({}) },
      },
    };
    const sandbox = await open({
      spec: doc as unknown as OpenApiDocument,
      data: SMALL_DATA,
      validateResponses: true,
    });
    try {
      const res = await client(sandbox, await tokenFor(sandbox))("GET", "/api/2.1/test-score-transformers");
      expect(res.status).toBe(501);
      const text =
        "listTestScoreTransformers_v2_1 is not simulated: the service interface does not give its shapes (not shown: response body)";
      expect(res.body).toEqual({
        ID: "not_simulated",
        id: "not_simulated",
        description: text,
        message: text,
        operationId: "listTestScoreTransformers_v2_1",
      });
    } finally {
      await sandbox.close();
    }
  });

  it("refuses to start on a description it cannot use", async () => {
    const noId = fixture() as unknown as { paths: Record<string, { get?: { operationId?: string } }> };
    delete noId.paths["/api/2.1/version"]?.get?.operationId;
    await expect(open({ spec: noId as unknown as OpenApiDocument })).rejects.toThrow(SpecInvalidError);

    const dangling = fixture() as unknown as { paths: Record<string, unknown> };
    dangling.paths["/x"] = {
      get: { operationId: "x", parameters: [{ $ref: "#/components/parameters/Nope" }] },
    };
    await expect(open({ spec: dangling as unknown as OpenApiDocument })).rejects.toThrow(/points nowhere/);
  });
});
