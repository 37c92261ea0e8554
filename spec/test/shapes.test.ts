import { describe, expect, it } from "vitest";
import { loadBundle, type Operation, operationsOf } from "./spec-fixtures.ts";

const full = loadBundle("openapi.json");
const schemas = full.components.schemas;
const operations = operationsOf(full);
const byId = (id: string) => {
  const operation = operations.find((o) => o.operationId === id);
  if (!operation) throw new Error(`no operation ${id}`);
  return operation;
};
const propertiesOf = (name: string) => Object.keys((schemas[name]?.properties ?? {}) as object);
type Response = Operation["responses"][string] & { $ref?: string };
const responses = (full.components as unknown as { responses: Record<string, Response> }).responses;
const jsonSchemaOf = (id: string, status: string) => {
  let response: Response | undefined = byId(id).responses[status];
  if (response?.$ref) response = responses[response.$ref.replace("#/components/responses/", "")];
  return response?.content?.["application/json"]?.schema as { $ref?: string } | undefined;
};

describe("shapes the interface gives", () => {
  it("describes the 2.0 question response field by field", () => {
    expect(propertiesOf("QuestionResponse")).toEqual(["question", "notifications"]);
    expect(propertiesOf("Question").slice(0, 4)).toEqual(["reference", "sequenceNr", "ask", "tell"]);
    expect(propertiesOf("QuestionAsk")).toEqual(["name", "term"]);
    expect(propertiesOf("QuestionTell")).toEqual(["name", "composition", "type", "terms"]);
    expect(propertiesOf("Term")).toEqual(["value"]);
  });

  it("describes Drillables and Drillable with the required fields the interface names", () => {
    expect(propertiesOf("Drillables")).toEqual(["total", "drills"]);
    expect(schemas.Drillable?.required).toEqual(["id", "name", "subject", "type", "description"]);
    // The interface's fields, then those the samples carry (observed: size, icon, version).
    expect(propertiesOf("Drillable")).toEqual([
      "id",
      "name",
      "subject",
      "type",
      "description",
      "practice",
      "size",
      "icon",
      "version",
    ]);
    expect(schemas.Drillable?.["x-observed"]).toMatchObject({
      source: expect.stringMatching(/SDK drillables\.json/),
    });
    expect(propertiesOf("DrillablePractice")).toEqual([
      "proficiency",
      "highestProficiency",
      "expectedDuration",
    ]);
    expect(propertiesOf("Proficiency")).toEqual(["receptive", "productive", "overall"]);
  });

  it("keeps values that merely occur open instead of closed enums", () => {
    const text = JSON.stringify(schemas);
    for (const value of ["DRILL", "SINGLE", "MULTIPLE_CHOICE", "ROLE_USER", "bearer"]) {
      expect(text).toContain(`"examples":["${value}"]`);
      expect(text).not.toContain(`"enum":["${value}"]`);
      expect(text).not.toContain(`"const":"${value}"`);
    }
  });

  it("describes the token exchange: form request, token response without refresh token", () => {
    const operation = byId("exchangeToken");
    const post = full.paths["/daas/oauth/token"]?.post as {
      requestBody?: { content: Record<string, unknown> };
    };
    expect(Object.keys(post.requestBody?.content ?? {})).toEqual(["application/x-www-form-urlencoded"]);
    expect(schemas.TokenRequest?.required).toEqual(["grant_type", "client_id", "client_secret", "assertion"]);
    const tokenRequestProperties = (schemas.TokenRequest?.properties ?? {}) as Record<
      string,
      { const?: string }
    >;
    const grantType = tokenRequestProperties.grant_type;
    expect(grantType?.const).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(propertiesOf("AccessTokenResponse")).toEqual([
      "access_token",
      "token_type",
      "expires_in",
      "scope",
      "jti",
    ]);
    expect(propertiesOf("AccessTokenResponse")).not.toContain("refresh_token");
    expect(jsonSchemaOf("exchangeToken", "2XX")?.$ref).toBe("#/components/schemas/AccessTokenResponse");
    expect(operation.description).toMatch(/one hour/);
    expect(operation.description).toMatch(/No refresh token/);
  });

  it("describes the discovery document, the key file and the assertion", () => {
    expect(schemas.AuthorizationServerMetadata?.required).toEqual(["token_endpoint"]);
    expect(schemas.ServiceAccountKeyFile?.required).toEqual(["keyId", "serviceAccountId"]);
    expect(schemas.ServiceAccountKeyFile?.additionalProperties).toBe(true);
    expect(propertiesOf("AssertionHeader")).toEqual(["alg", "typ", "kid"]);
    expect(propertiesOf("AssertionClaims")).toEqual(["sub", "iss", "aud", "exp"]);
    expect(JSON.stringify(schemas.AssertionClaims)).toMatch(/3600 seconds/);
  });

  it.each(["searchStore_v2_0", "searchStore_v2_1"])(
    "gives %s the store parameters, searchField as repeated keys",
    (id) => {
      const parameters = byId(id).parameters ?? [];
      expect(parameters.map((p) => p.name)).toEqual([
        "query",
        "searchField",
        "catalog",
        "resultStart",
        "resultSize",
      ]);
      const searchField = parameters.find((p) => p.name === "searchField");
      expect(searchField).toMatchObject({ in: "query", style: "form", explode: true });
      expect((searchField?.schema?.items as { enum?: string[] } | undefined)?.enum).toEqual([
        "NAME",
        "DESCRIPTION",
        "SUBJECT",
        "TAGS",
        "CONTENTS",
      ]);
      expect(parameters.find((p) => p.name === "resultStart")?.schema?.default).toBe("0");
    },
  );

  it("answers the 2.0 store search with Drillables and its errors with the field ID", () => {
    expect(jsonSchemaOf("searchStore_v2_0", "2XX")?.$ref).toBe("#/components/schemas/Drillables");
    expect(jsonSchemaOf("searchStore_v2_0", "default")?.$ref).toBe("#/components/schemas/ErrorResponse");
    expect(schemas.ErrorResponse?.required).toEqual(["ID"]);
    const examples = JSON.stringify(full.paths["/api/2/store"]);
    expect(examples).toContain('"ID":"query_missing"');
    expect(examples).toContain('"ID":"error"');
  });

  it("gives the 2.0 question a path drill_id and a repeatable drill query", () => {
    const single = byId("getQuestion_v2_0");
    expect(single.parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(["path:drill_id", "query:drill"]);
    const several = byId("getQuestions_v2_0");
    expect(several.parameters?.find((p) => p.name === "drill")).toMatchObject({
      style: "form",
      explode: true,
    });
    expect(jsonSchemaOf("getQuestion_v2_0", "2XX")?.$ref).toBe("#/components/schemas/QuestionResponse");
  });
});

describe("what the interface does not show", () => {
  it("marks every operation with an open response shape as undocumented", () => {
    let undocumented = 0;
    for (const o of operations) {
      if (jsonSchemaOf(o.operationId, "2XX")?.$ref === "#/components/schemas/NotShown") {
        undocumented += 1;
        expect(o["x-undocumented"], o.operationId).toContain("response body and its media type");
      }
      expect(o["x-undocumented"]?.length ?? 0, o.operationId).toBeGreaterThan(0);
    }
    // Every other answer is typed by the interface itself or by an observed fact (x-observed).
    expect(undocumented).toBeGreaterThan(0);
    expect(undocumented).toBeLessThan(218);
  });

  it("writes every x-undocumented marker as a list of non-empty strings (the docs render them)", () => {
    const markers: unknown[] = [];
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(visit);
      else if (node && typeof node === "object") {
        for (const [key, value] of Object.entries(node)) {
          if (key === "x-undocumented") markers.push(value);
          visit(value);
        }
      }
    };
    visit(full);
    expect(markers.length).toBeGreaterThan(218);
    for (const marker of markers) {
      expect(Array.isArray(marker)).toBe(true);
      for (const entry of marker as unknown[]) {
        expect(typeof entry === "string" && entry.trim().length > 0, JSON.stringify(entry)).toBe(true);
      }
    }
  });

  it("invents no status code: 2XX and default, or a code a reference page shows", () => {
    for (const o of operations) {
      for (const key of Object.keys(o.responses)) {
        if (key === "2XX" || key === "default") continue;
        const response = o.responses[key] as Record<string, unknown>;
        const errors = (o as unknown as Record<string, unknown>)["x-errors"] as
          | { ids: { status?: number }[] }
          | undefined;
        if (/^[45]/.test(key) && response["x-observed"] === undefined)
          expect(
            errors?.ids.some((entry) => String(entry.status) === key),
            `${o.operationId} ${key}`,
          ).toBe(true);
        else expect(response["x-observed"], `${o.operationId} ${key}`).toBeDefined();
      }
    }
  });

  it("keeps NotShown open: no type, no properties", () => {
    expect(schemas.NotShown).not.toHaveProperty("type");
    expect(schemas.NotShown).not.toHaveProperty("properties");
    expect(schemas.NotShown?.["x-undocumented"]).toBeDefined();
  });
});
