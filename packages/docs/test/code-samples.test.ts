import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addCodeSamples, curlSample, sampleRequest, typescriptSample } from "../src/code-samples.ts";
import { asOpenApiDocument, listOperations, type OpenApiDocument } from "../src/openapi-document.ts";
import { sampleValues } from "../src/sample-values.ts";

const fixture = async (version: string): Promise<OpenApiDocument> =>
  asOpenApiDocument(
    JSON.parse(await readFile(join(import.meta.dirname, "fixtures", `openapi-v${version}.json`), "utf8")),
    version,
  );

describe("code samples", () => {
  it("fill path parameters from the spec's example and call the real path with unwrap", async () => {
    const document = await fixture("2.0");
    const values = sampleValues([document]);
    const entry = listOperations(document).find((e) => e.path === "/api/2/question/{drill_id}");
    if (!entry) throw new Error("fixture changed");
    const request = sampleRequest(document, entry, values);
    expect(request.pathParams).toEqual([{ name: "drill_id", value: { literal: "math-times-7" } }]);
    const ts = typescriptSample(request);
    expect(ts).toContain(
      'client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "math-times-7" } } })',
    );
    expect(ts).toContain('import { serviceAccountAuth } from "@drill-practice/auth/node";');
    expect(ts).toContain("await unwrap(");
    const curl = curlSample(request);
    expect(curl).toContain('"$DRILL_BASE_URL/api/2/question/math-times-7"');
    expect(curl).toContain('TOKEN="$(npx -p @drill-practice/auth drill-token)"');
    expect(curl).not.toContain("-X GET");
  });

  it("send to the sandbox's address by default, and to a given base URL, quoted for each language", async () => {
    const document = await fixture("2.0");
    const entry = listOperations(document).find((e) => e.path === "/api/2/question/{drill_id}");
    if (!entry) throw new Error("fixture changed");
    const request = sampleRequest(document, entry, sampleValues([document]));
    expect(typescriptSample(request)).toContain('baseUrl: env.DRILL_BASE_URL ?? "http://127.0.0.1:4010",');
    expect(curlSample(request)).not.toContain("DRILL_BASE_URL=");
    const base = "https://drill.example/it's";
    const ts = typescriptSample(request, base);
    expect(ts).toContain('baseUrl: env.DRILL_BASE_URL ?? "https://drill.example/it\'s",');
    expect(ts).not.toContain("127.0.0.1");
    const curl = curlSample(request, base);
    expect(curl.split("\n")[0]).toBe("DRILL_BASE_URL='https://drill.example/it'\\''s'");
    const shell = spawnSync("bash", ["-c", `${curl.split("\n")[0]}; printf %s "$DRILL_BASE_URL"`], {
      encoding: "utf8",
    });
    expect(shell.stdout).toBe(base);
  });

  it("fill a closed path segment with a value its schema allows and a numeric one with a number", async () => {
    const document = asOpenApiDocument(
      {
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/api/2.1.1/group/{group}/staff/{user}/{permission}/{position}": {
            parameters: [
              { name: "group", in: "path", required: true, schema: { type: "string" } },
              { name: "user", in: "path", required: true, schema: { type: "string" } },
              {
                name: "permission",
                in: "path",
                required: true,
                schema: { type: "string", enum: ["MANAGE", "VIEW"] },
              },
              { name: "position", in: "path", required: true, schema: { type: "integer", minimum: 1 } },
            ],
            put: { operationId: "op_v2_1_1", responses: { "204": { description: "done" } } },
          },
        },
      },
      "inline",
    );
    const values = sampleValues([await fixture("2.0")]);
    const [entry] = listOperations(document);
    if (!entry) throw new Error("no operation");
    const request = sampleRequest(document, entry, values);
    expect(request.pathParams.map((p) => [p.name, p.value])).toEqual([
      ["group", { literal: values.literal.group }],
      ["user", { literal: values.literal.user }],
      ["permission", { literal: "MANAGE" }],
      ["position", { literal: "1", numeric: true }],
    ]);
    expect(typescriptSample(request)).toContain(
      `path: { group: "${values.literal.group}", user: "${values.literal.user}", permission: "MANAGE", position: 1 }`,
    );
    expect(curlSample(request)).toContain(
      `/api/2.1.1/group/${values.literal.group}/staff/${values.literal.user}/MANAGE/1"`,
    );
  });

  it("send the token exchange as a form with the secret on standard input and no bearer token", () => {
    const request = {
      operationId: "exchangeToken",
      method: "post" as const,
      path: "/daas/oauth/token",
      pathParams: [],
      query: [],
      body: {
        kind: "token" as const,
        mediaType: "application/x-www-form-urlencoded",
        fields: ["grant_type", "client_id", "client_secret", "assertion"],
      },
      authenticated: false,
    };
    const curl = curlSample(request);
    expect(curl).toContain('--data-urlencode "client_secret@-"');
    expect(curl).toContain('--data-urlencode "assertion@assertion.jwt"');
    expect(curl).toContain(`printf '%s' "$DRILL_CLIENT_SECRET" |`);
    expect(curl).not.toContain("drill-token");
    expect(typescriptSample(request)).toContain("await auth.getToken()");
  });

  it("say a form is not shown only where no page names its fields: a declared form needing none is sent empty", async () => {
    const form = (schema: object) => ({
      required: false,
      content: { "application/x-www-form-urlencoded": { schema } },
    });
    const document = asOpenApiDocument(
      {
        openapi: "3.1.0",
        info: { title: "t", version: "1" },
        paths: {
          "/empty": { put: { operationId: "empty", requestBody: form({ type: "object", properties: {} }) } },
          "/optional": {
            put: {
              operationId: "optional",
              requestBody: form({ type: "object", properties: { reviewDate: { type: "string" } } }),
            },
          },
          "/open": {
            put: {
              operationId: "open",
              requestBody: form({ type: "object", additionalProperties: { type: "string" } }),
            },
          },
        },
      },
      "inline",
    );
    const values = sampleValues([await fixture("2.0")]);
    const samples = Object.fromEntries(
      listOperations(document).map((entry) => {
        const request = sampleRequest(document, entry, values);
        return [entry.path, { ts: typescriptSample(request), curl: curlSample(request) }];
      }),
    );
    for (const path of ["/empty", "/optional"]) {
      const { ts, curl } = samples[path] ?? { ts: "", curl: "" };
      expect(ts, path).not.toContain("not shown");
      expect(ts, path).toContain(`client.PUT("${path}")`);
      // An empty form still carries Content-Length: 0, which a PUT needs.
      expect(curl, path).toContain("--data ''");
      expect(curl, path).not.toContain("form.txt");
    }
    expect(samples["/open"]?.ts).toContain("Its form fields are not shown by the interface");
    expect(samples["/open"]?.curl).toContain("--data @form.txt");
  });

  it("quote values for the shell and URL-encode them", () => {
    const curl = curlSample({
      operationId: "x",
      method: "put",
      path: "/api/2.1/thing/{id}",
      pathParams: [{ name: "id", value: { literal: "a b/$c" } }],
      query: [{ name: "tag", values: ["x y", "z"], array: true }],
      body: { kind: "form", fields: [["name", "it's"]] },
      authenticated: true,
    });
    expect(curl).toContain('"$DRILL_BASE_URL/api/2.1/thing/a%20b%2F%24c?tag=x%20y&tag=z"');
    expect(curl).toContain("--data-urlencode 'name=it'\\''s'");
    expect(curl).toContain("-X PUT");
  });

  it("give every operation a TypeScript and a curl sample without touching the input", async () => {
    const document = await fixture("2.1");
    const before = JSON.stringify(document);
    const { document: sampled } = addCodeSamples(document, sampleValues([await fixture("2.0")]));
    expect(JSON.stringify(document)).toBe(before);
    for (const { operation } of listOperations(sampled)) {
      expect((operation["x-codeSamples"] as { lang: string }[]).map((s) => s.lang)).toEqual([
        "TypeScript",
        "curl",
      ]);
    }
  });
});
