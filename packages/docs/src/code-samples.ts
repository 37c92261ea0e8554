import type { HttpMethod } from "@drill-practice/tooling/operations";
import {
  listOperations,
  type OpenApiDocument,
  type OperationEntry,
  operationParameters,
  resolveRef,
} from "./openapi-document.ts";
import { placeholderValue, type ReaderValue, type SampleValues } from "./sample-values.ts";

/** One entry of Redoc's `x-codeSamples`. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/** The languages of the samples, in the order of Redoc's language switch (see redocly.yaml). */
export const sampleLanguages = [
  { lang: "TypeScript", label: "TypeScript" },
  { lang: "curl", label: "curl" },
] as const;

/** A parameter value: a literal, or something the reader brings (see {@link ReaderValue}). */
/** A path parameter's value: a literal (`numeric` when the schema types it as a number), or one the reader brings. */
export type SampleValue = { literal: string; numeric?: true } | { reader: ReaderValue };

/** The request a sample makes, derived from the operation. */
export interface SampleRequest {
  operationId: string;
  method: HttpMethod;
  path: string;
  pathParams: { name: string; value: SampleValue }[];
  query: { name: string; values: string[]; array: boolean }[];
  body?:
    | { kind: "json"; value: unknown }
    | { kind: "unknown"; mediaType: string }
    | { kind: "form"; fields: [name: string, value: string, repeated?: boolean][] }
    | { kind: "form-unknown" }
    | { kind: "token"; mediaType: string; fields: string[] }
    | { kind: "multipart" };
  /** Whether the operation needs a bearer token (`security` not empty). */
  authenticated: boolean;
}

const formMediaType = "application/x-www-form-urlencoded";

function firstExample(parameter: {
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: unknown;
}): unknown {
  if (parameter.example !== undefined) return parameter.example;
  for (const example of Object.values(parameter.examples ?? {})) {
    if (example && example.value !== undefined) return example.value;
  }
  const schema = parameter.schema;
  return typeof schema === "object" && schema !== null
    ? (schema as { example?: unknown }).example
    : undefined;
}

function isNotShown(document: OpenApiDocument, schema: unknown): boolean {
  if (typeof schema === "object" && schema !== null && "$ref" in schema) {
    return String((schema as { $ref: unknown }).$ref).endsWith("/NotShown");
  }
  const resolved = resolveRef<Record<string, unknown> | undefined>(document, schema);
  return resolved?.title === "NotShown";
}

/**
 * Works out the request a sample should make: the real path, every required parameter and
 * every parameter the spec gives an example for, filled with values from {@link SampleValues}
 * (values of the sandbox's dataset first, then the spec's examples, then a readable stand-in).
 */
export function sampleRequest(
  document: OpenApiDocument,
  entry: OperationEntry,
  values: SampleValues,
): SampleRequest {
  const { method, path, operation } = entry;
  const operationId = operation.operationId;
  if (!operationId) throw new Error(`${method.toUpperCase()} ${path}: no operationId`);
  const pathParams: SampleRequest["pathParams"] = [];
  const query: SampleRequest["query"] = [];
  for (const parameter of operationParameters(document, path, operation)) {
    const example = firstExample(parameter);
    const literal = values.literal[parameter.name];
    if (parameter.in === "path") {
      const reader = values.fromReader[parameter.name];
      const value: SampleValue = reader ? { reader } : pathValue(parameter, literal, example);
      pathParams.push({ name: parameter.name, value });
      continue;
    }
    if (parameter.in !== "query") continue;
    if (!parameter.required && example === undefined) continue;
    const array = parameter.schema?.type === "array";
    const fromSpec =
      example === undefined ? [] : Array.isArray(example) ? example.map(String) : [String(example)];
    const chosen =
      literal !== undefined
        ? [literal]
        : fromSpec.length > 0
          ? fromSpec
          : [firstAllowed(parameter.schema) ?? placeholderValue(parameter.name)];
    query.push({ name: parameter.name, values: array ? chosen : chosen.slice(0, 1), array });
  }
  for (const { name } of pathParams) {
    if (!path.includes(`{${name}}`))
      throw new Error(`${method.toUpperCase()} ${path}: no {${name}} in the path`);
  }

  const request: SampleRequest = {
    operationId,
    method,
    path,
    pathParams,
    query,
    authenticated: !(Array.isArray(operation.security) && operation.security.length === 0),
  };
  request.body = sampleBody(document, operation.requestBody, values);
  return request;
}

interface MediaObject {
  schema?: unknown;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}

interface SchemaObject {
  title?: string;
  properties?: Record<string, unknown>;
  required?: string[];
}

function sampleBody(
  document: OpenApiDocument,
  requestBody: unknown,
  values: SampleValues,
): SampleRequest["body"] {
  const body = resolveRef<{ content?: Record<string, MediaObject> } | undefined>(document, requestBody);
  const [mediaType, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (mediaType === undefined || media === undefined) return undefined;
  if (mediaType === "multipart/form-data") return { kind: "multipart" };
  const schema = resolveRef<SchemaObject | undefined>(document, media.schema) ?? {};
  const example = firstExample(media);
  if (mediaType === formMediaType) {
    const names = Object.keys(schema.properties ?? {});
    if (names.includes("assertion") && names.includes("grant_type")) {
      return { kind: "token", mediaType, fields: schema.required ?? names };
    }
    const fromExample =
      typeof example === "object" && example !== null ? (example as Record<string, unknown>) : {};
    // Only what a caller must send, and what the spec's example shows: a field with a default is
    // optional in the client's types, and the service fills it in.
    const wanted = [...new Set([...(schema.required ?? []), ...Object.keys(fromExample)])];
    // A declared form (its `properties`, maybe none, as the empty form's) is known even when no field
    // is needed; only the open form of a request whose fields no page names is not shown.
    if (wanted.length === 0)
      return schema.properties === undefined ? { kind: "form-unknown" } : { kind: "form", fields: [] };
    return {
      kind: "form",
      fields: wanted.map((name) => {
        const given = fromExample[name];
        const value = Array.isArray(given) ? given[0] : given;
        // An observed field's schema may close its values (enum) or take a repeated field (array);
        // a field typed as a list is sent repeated, and TypeScript wants it as an array.
        const property = resolveRef<{ type?: unknown; items?: unknown } | undefined>(
          document,
          schema.properties?.[name],
        );
        const type = property?.type;
        const repeated = type === "array" || (Array.isArray(type) && type.includes("array"));
        const fallback = (property as { default?: unknown } | undefined)?.default;
        const allowed =
          fallback !== undefined && !Array.isArray(fallback)
            ? String(fallback)
            : firstAllowed(repeated ? resolveRef(document, property?.items) : property);
        const chosen =
          value !== undefined ? String(value) : (values.literal[name] ?? allowed ?? placeholderValue(name));
        return [name, chosen, repeated];
      }),
    };
  }
  if (isNotShown(document, media.schema) || example === undefined) return { kind: "unknown", mediaType };
  return { kind: "json", value: example };
}

/**
 * A path parameter's literal: the sandbox's value, the spec's example, the first value its schema
 * allows (an `enum` segment such as `MANAGE`), a number's lowest value (`{position}`), or a
 * readable stand-in. A number stays a number for TypeScript.
 */
function pathValue(
  parameter: { name: string; schema?: { type?: unknown; minimum?: unknown } },
  literal: string | undefined,
  example: unknown,
): SampleValue {
  const type = parameter.schema?.type;
  const numeric = type === "integer" || type === "number";
  const minimum = typeof parameter.schema?.minimum === "number" ? parameter.schema.minimum : 0;
  const text =
    literal ??
    (typeof example === "string" || (numeric && typeof example === "number") ? String(example) : undefined) ??
    firstAllowed(parameter.schema) ??
    (numeric ? String(minimum) : placeholderValue(parameter.name));
  return numeric && /^-?\d+(\.\d+)?$/.test(text) ? { literal: text, numeric: true } : { literal: text };
}

/** The first value a schema closes its set to (`enum`), or its first example, as text. */
function firstAllowed(schema: unknown): string | undefined {
  const { enum: closed, examples } = (schema ?? {}) as { enum?: unknown[]; examples?: unknown[] };
  const first = closed?.[0] ?? examples?.[0];
  return first === undefined ? undefined : String(first);
}

/** Where the samples send unless told otherwise: the sandbox's default address. */
const SANDBOX_BASE_URL = "http://127.0.0.1:4010";

function tsString(value: string): string {
  return JSON.stringify(value);
}

function tsValue(value: SampleValue): string {
  if (!("literal" in value)) return `env.${value.reader.env} ?? ""`;
  return value.numeric ? value.literal : tsString(value.literal);
}

function readerHints(request: SampleRequest, comment: string): string[] {
  return request.pathParams.flatMap(({ name, value }) =>
    "reader" in value
      ? [`${comment} ${value.reader.env}: ${value.reader.hint} (path parameter ${name})`]
      : [],
  );
}

const tsSetup = [
  'import { serviceAccountAuth } from "@drill-practice/auth/node";',
  'import { createDrillClient, unwrap } from "@drill-practice/client";',
  "",
  "// DRILL_*: the sandbox's client.env (see the quick start)",
  "const { env } = process;",
  "const auth = serviceAccountAuth({",
  '  keyFile: env.DRILL_KEY_FILE ?? "creds/service-account.json",',
  '  clientId: env.DRILL_CLIENT_ID ?? "",',
  '  clientSecret: env.DRILL_CLIENT_SECRET ?? "",',
  "});",
];

/**
 * The TypeScript sample: a client from `@drill-practice/client` authenticated by
 * `serviceAccountAuth`, one call on the operation's real path with its parameters, and `unwrap`
 * for the typed success body (it throws `DrillApiError` on an error answer). The token exchange
 * itself is what `serviceAccountAuth` does, so its sample asks for a token. `baseUrl` is where it
 * sends when `DRILL_BASE_URL` is not set: the sandbox by default, the reader's server from Try it.
 */
export function typescriptSample(request: SampleRequest, baseUrl: string = SANDBOX_BASE_URL): string {
  const lines = [...tsSetup];
  const baseLine = `  baseUrl: env.DRILL_BASE_URL ?? ${tsString(baseUrl)},`;
  if (request.body?.kind === "token") {
    // Without a client to take the base URL from, the provider needs its own to find the endpoint.
    lines.splice(lines.length - 1, 0, baseLine);
    lines.push(
      "",
      `// serviceAccountAuth signs an assertion and posts it to ${request.path} as ${request.body.mediaType}.`,
      "const token = await auth.getToken();",
      "console.log(token.expiresAt);",
    );
    return `${lines.join("\n")}\n`;
  }
  lines.push("const client = createDrillClient({", baseLine, "  auth,", "});", "");
  lines.push(...readerHints(request, "//"));
  const options: string[] = [];
  const params: string[] = [];
  if (request.pathParams.length > 0) {
    params.push(`path: { ${request.pathParams.map((p) => `${p.name}: ${tsValue(p.value)}`).join(", ")} }`);
  }
  if (request.query.length > 0) {
    const entries = request.query.map((q) => {
      const value = q.array ? `[${q.values.map(tsString).join(", ")}]` : tsString(q.values[0] ?? "");
      return `${/^[A-Za-z_$][\w$]*$/.test(q.name) ? q.name : tsString(q.name)}: ${value}`;
    });
    params.push(`query: { ${entries.join(", ")} }`);
  }
  if (params.length > 0) options.push(`params: { ${params.join(", ")} }`);
  const body = request.body;
  if (body?.kind === "json") options.push(`body: ${JSON.stringify(body.value)}`);
  if (body?.kind === "form" && body.fields.length > 0) {
    // A repeated field given several values (as Try it may send) is one array, not one key per value.
    const grouped = new Map<string, { values: string[]; repeated: boolean }>();
    for (const [name, value, repeated] of body.fields) {
      const entry = grouped.get(name) ?? { values: [], repeated: repeated === true };
      entry.values.push(value);
      grouped.set(name, entry);
    }
    const fields = [...grouped].map(
      ([name, { values, repeated }]) =>
        `${JSON.stringify(name)}: ${repeated ? `[${values.map(tsString).join(", ")}]` : tsString(values[0] ?? "")}`,
    );
    // The client sends a plain object as form fields, with their content type.
    options.push(`body: { ${fields.join(", ")} }`);
  }
  if (body?.kind === "unknown") {
    lines.push("// The request body is not shown by the interface; pass it as `body` once you know it.");
  }
  if (body?.kind === "form-unknown") {
    lines.push(
      "// Its form fields are not shown by the interface; pass them as `body` (an object of",
      "// form fields) once you know them.",
    );
  }
  if (body?.kind === "multipart") {
    lines.push(
      "// The upload goes as multipart/form-data (a FormData `body`); its part names are not shown.",
    );
  }
  const method = request.method.toUpperCase();
  const args =
    options.length > 0 ? `${tsString(request.path)}, { ${options.join(", ")} }` : tsString(request.path);
  lines.push(`const result = await unwrap(client.${method}(${args}));`, "console.log(result);");
  return `${lines.join("\n")}\n`;
}

function shellQuoteDouble(text: string): string {
  return text.replace(/[\\"$`]/g, (c) => `\\${c}`);
}

function shellQuoteSingle(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl sample: a token from `drill-token` (run from `@drill-practice/auth` with `npx -p`),
 * sent through standard input so it stays out of the process list, the operation's method and
 * real path, the query in the form the spec describes, and the body with its media type. With a
 * `baseUrl`, the sample first sets `DRILL_BASE_URL` to it (Try it, sending to the reader's server).
 */
export function curlSample(request: SampleRequest, baseUrl?: string): string {
  let url = request.path;
  for (const { name, value } of request.pathParams) {
    const text =
      "literal" in value ? shellQuoteDouble(encodeURIComponent(value.literal)) : `\${${value.reader.env}}`;
    url = url.replace(`{${name}}`, text);
  }
  const query = request.query.flatMap((q) =>
    q.values.map((v) => `${encodeURIComponent(q.name)}=${shellQuoteDouble(encodeURIComponent(v))}`),
  );
  if (query.length > 0) url += `?${query.join("&")}`;

  const lines: string[] = [
    ...(baseUrl === undefined ? [] : [`DRILL_BASE_URL=${shellQuoteSingle(baseUrl)}`]),
    "# DRILL_BASE_URL and the credentials: see the quick start (the sandbox's client.env)",
  ];
  lines.push(...readerHints(request, "#"));
  const method = request.method.toUpperCase();
  const curl: string[] = ["curl --fail-with-body -sS"];
  if (request.body?.kind === "token") {
    // The token exchange: the secret comes from standard input, the assertion from a file.
    lines.push("# assertion.jwt: a signed assertion (see the Authentication guide)");
    curl.push(`"$DRILL_BASE_URL${shellQuoteDouble(url)}"`);
    for (const field of request.body.fields) {
      if (field === "grant_type") {
        curl.push(`--data-urlencode "grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer"`);
      } else if (field === "client_id") curl.push(`--data-urlencode "client_id=$DRILL_CLIENT_ID"`);
      else if (field === "client_secret") curl.push(`--data-urlencode "client_secret@-"`);
      else if (field === "assertion") curl.push(`--data-urlencode "assertion@assertion.jwt"`);
      else curl.push(`--data-urlencode "${field}=${placeholderValue(field)}"`);
    }
    lines.push(`printf '%s' "$DRILL_CLIENT_SECRET" |\n  ${curl.join(" \\\n    ")}`);
    return `${lines.join("\n")}\n`;
  }
  if (method !== "GET") curl.push(`-X ${method}`);
  curl.push(`"$DRILL_BASE_URL${url}"`);
  if (request.body?.kind === "json") {
    curl.push(
      `-H "Content-Type: application/json"`,
      `--data ${shellQuoteSingle(JSON.stringify(request.body.value))}`,
    );
  } else if (request.body?.kind === "unknown") {
    lines.push(
      `# body.json: the request body; its shape is not shown by the interface (${request.body.mediaType} assumed)`,
    );
    curl.push(`-H "Content-Type: ${request.body.mediaType}"`, "--data @body.json");
  } else if (request.body?.kind === "form") {
    for (const [name, value] of request.body.fields) {
      curl.push(`--data-urlencode ${shellQuoteSingle(`${name}=${value}`)}`);
    }
    // No field to send: an empty form still goes with Content-Length: 0, which a PUT needs.
    if (request.body.fields.length === 0) curl.push("--data ''");
  } else if (request.body?.kind === "form-unknown") {
    lines.push(
      "# form.txt: the form fields as name=value&… (which fields exist is not shown); empty for none",
    );
    // An empty file still sends Content-Length: 0, which a PUT without fields needs.
    curl.push("--data @form.txt");
  } else if (request.body?.kind === "multipart") {
    lines.push(
      '# a multipart/form-data upload: add one -F "name=@file" per part; the part names are not shown',
    );
  }
  if (request.authenticated) {
    curl.splice(1, 0, "-H @-");
    lines.push('TOKEN="$(npx -p @drill-practice/auth drill-token)"');
    lines.push(`printf 'Authorization: Bearer %s\\n' "$TOKEN" |\n  ${curl.join(" \\\n    ")}`);
  } else {
    lines.push(curl.join(" \\\n  "));
  }
  return `${lines.join("\n")}\n`;
}

/** What {@link addCodeSamples} produced. */
export interface SampledDocument {
  document: OpenApiDocument;
  /** Every operation's request, by operationId (for the tests that run the samples). */
  requests: Map<string, SampleRequest>;
}

/**
 * Copies the document and gives every operation its `x-codeSamples` (TypeScript and curl),
 * replacing any it had, so Redoc's sample panel shows a call next to each operation.
 */
export function addCodeSamples(input: OpenApiDocument, values: SampleValues): SampledDocument {
  const document = structuredClone(input);
  const requests = new Map<string, SampleRequest>();
  for (const entry of listOperations(document)) {
    const request = sampleRequest(document, entry, values);
    requests.set(request.operationId, request);
    entry.operation["x-codeSamples"] = [
      { ...sampleLanguages[0], source: typescriptSample(request) },
      { ...sampleLanguages[1], source: curlSample(request) },
    ] satisfies CodeSample[];
  }
  return { document, requests };
}
