/**
 * Shared test helpers: a small dataset with known contents, a sandbox started in response validation
 * mode, and assertion signing with jose (the way any client would, without the SDK's auth package).
 */

import type { JWTPayload } from "jose";
import { importPKCS8, SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, expect, inject, it } from "vitest";
import type {
  ResponseValidationError,
  Sandbox,
  SandboxControls,
  SandboxData,
  SandboxOptions,
} from "../../src/index.js";
import { createSandbox, startSandbox } from "../../src/index.js";
import { drill } from "./domain-data.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Which door the flow tests go through (vitest.config.ts runs them once per door). */
    door: "http" | "in-process";
  }
}

/**
 * The door this run of the flow tests uses: `http` (`startSandbox`, global `fetch` over loopback) or
 * `in-process` (`createSandbox`, its own `fetch`).
 */
export const DOOR = inject("door") ?? "http";

/** A test of what only a socket can carry (raw bytes, Host headers, framing): runs over HTTP only. */
export function httpOnly(name: string, fn: () => Promise<void>): void {
  (DOOR === "http" ? it : it.skip)(name, fn);
}

/**
 * A sandbox through the current door: the controls, a `fetch` that reaches it, and `close` (and, over
 * HTTP, the credentials files).
 */
export interface TestSandbox extends SandboxControls {
  readonly fetch: typeof fetch;
  readonly credentialsFiles?: Sandbox["credentialsFiles"];
  close(): Promise<void>;
}

/**
 * Opens a sandbox through the current door, with exactly these options (none added, not closed for
 * the caller). Options of the Node door only (`port`, files) are for `startSandbox` tests, not here.
 */
export async function open(options: SandboxOptions = {}): Promise<TestSandbox> {
  if (DOOR === "in-process") return createSandbox(options);
  const sandbox = await startSandbox(options);
  return Object.assign(sandbox, { fetch: globalThis.fetch });
}

export const GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** A drill of words in a language (its subject, the asked side) with their English meanings. */
function wordDrill(
  id: string,
  subject: string,
  name: string,
  description: string,
  tags: string[],
  inStore: boolean,
  pairs: readonly (readonly [string, string])[],
): SandboxData["drills"][number] {
  const made = drill(
    id,
    name,
    subject,
    description,
    tags,
    pairs.map(([ask, tell]) => [ask, tell]),
    inStore,
  );
  return { ...made, askName: subject, tellName: "English" };
}

/**
 * Four drills, one course, one catalog; an organization with a service account, two managed users and
 * one user outside it.
 */
export const SMALL_DATA: SandboxData = {
  organizations: [{ id: "org-1", name: "Test Academy", serviceAccountId: "sa-1" }],
  users: [
    { id: "sa-1", name: "Academy integration", emails: [], thirdPartyIds: [], organizationId: "org-1" },
    {
      id: "u-ana",
      name: "Ana",
      emails: ["ana@academy.test"],
      thirdPartyIds: ["hr-1001"],
      organizationId: "org-1",
    },
    { id: "u-bob", name: "Bob", emails: ["bob@academy.test"], thirdPartyIds: [], organizationId: "org-1" },
    { id: "u-zoe", name: "Zoe", emails: ["zoe@elsewhere.test"], thirdPartyIds: ["ext-9"] },
  ],
  drills: [
    wordDrill(
      "es-animals",
      "Spanish",
      "Spanish animals",
      "Common animals in Spanish",
      ["spanish", "animals"],
      true,
      [
        ["perro", "dog"],
        ["gato", "cat"],
        ["caballo", "horse"],
        ["pájaro", "bird"],
      ],
    ),
    wordDrill(
      "es-colours",
      "Spanish",
      "Spanish colours",
      "Colour words for beginners",
      ["spanish", "colours"],
      true,
      [
        ["rojo", "red"],
        ["azul", "blue"],
        ["verde", "green"],
      ],
    ),
    wordDrill(
      "fr-animals",
      "French",
      "French animals",
      "Common animals in French",
      ["french", "animals"],
      true,
      [
        ["chien", "dog"],
        ["chat", "cat"],
      ],
    ),
    wordDrill(
      "de-business",
      "German",
      "German business words",
      "Words for the office",
      ["german", "business"],
      false,
      [
        ["Besprechung", "meeting"],
        ["Rechnung", "invoice"],
      ],
    ),
  ],
  courses: [
    {
      id: "course-spanish",
      type: "COURSE",
      name: "Spanish basics",
      subject: "Spanish",
      description: "Animals and colours",
      tags: ["spanish"],
      inStore: true,
      drillIds: ["es-animals", "es-colours"],
    },
  ],
  catalogs: [
    { id: "cat-business", name: "Business", drillableIds: ["de-business", "fr-animals"], userIds: ["u-ana"] },
  ],
  groups: [],
};

const running: TestSandbox[] = [];

afterEach(async () => {
  const sandboxes = running.splice(0);
  for (const sandbox of sandboxes) {
    const violations = sandbox.responseViolations.map((v) => v.message);
    await sandbox.close();
    expect(violations, "responses that do not match the OpenAPI description").toEqual([]);
  }
});

/** The organization of SMALL_DATA with Bob on its staff (VIEW), for the families' permission tests. */
export const ORG_WITH_BOB_ON_STAFF = {
  id: "org-1",
  name: "Test Academy",
  serviceAccountId: "sa-1",
  staff: [{ userId: "u-bob", permission: "VIEW" as const }],
};

/** SMALL_DATA with Bob on the organization's staff (VIEW only): the families' permission tests' data. */
export const BOB_ON_STAFF_DATA: SandboxData = { ...SMALL_DATA, organizations: [ORG_WITH_BOB_ON_STAFF] };

/** A group of SMALL_DATA's organization with Ana as its one member. */
export const EVENING_CLASS = {
  id: "g-class",
  name: "Class",
  description: "Evening class",
  organizationId: "org-1",
  memberIds: ["u-ana"],
  drillableIds: [] as string[],
};

/** A sandbox with the small dataset, in response validation mode, closed after the test. */
export async function start(options: SandboxOptions = {}): Promise<TestSandbox> {
  const sandbox = await open({
    data: SMALL_DATA,
    validateResponses: true,
    onResponseViolation: (error: ResponseValidationError) =>
      console.error(`RESPONSE VALIDATION: ${error.message}`),
    ...options,
  });
  running.push(sandbox);
  return sandbox;
}

/**
 * A sandbox of the small dataset in which the service account has made a group ("G") with Ana as its
 * one member: where the families that work through a group (objectives, tests) start.
 */
export async function startWithAnasGroup() {
  const sandbox = await start();
  const sa = client(sandbox, await tokenFor(sandbox));
  const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
  const created = await sa("POST", "/api/2.1/groups", { body: { name: "G", description: "d" } });
  const group = created.body as { id: string };
  await sa("PUT", `/api/2.1/group/${group.id}/members/u-ana`);
  return { sandbox, sa, ana, group };
}

/**
 * One sandbox for every test of the calling file (or describe block): started before the first test,
 * checked for response violations after each, closed after the last. For tests that do not depend on
 * a fresh state.
 */
export function sharedSandbox(options: SandboxOptions = {}): () => TestSandbox {
  let sandbox: TestSandbox | undefined;
  beforeAll(async () => {
    sandbox = await open({ data: SMALL_DATA, validateResponses: true, ...options });
  });
  afterEach(() => {
    const violations = sandbox?.responseViolations.map((v) => v.message) ?? [];
    (sandbox?.responseViolations as ResponseValidationError[] | undefined)?.splice(0);
    expect(violations, "responses that do not match the OpenAPI description").toEqual([]);
  });
  afterAll(async () => {
    await sandbox?.close();
  });
  return () => {
    if (!sandbox) throw new Error("sharedSandbox: used outside a test");
    return sandbox;
  };
}

export interface AssertionParts {
  header?: Record<string, unknown>;
  claims?: JWTPayload;
  /** Override the key used to sign (defaults to the sandbox's service account key). */
  privateKeyPem?: string;
}

/** Signs an assertion for the sandbox's first service account, with overridable header and claims. */
export async function signAssertion(sandbox: SandboxControls, parts: AssertionParts = {}): Promise<string> {
  const keyFile = sandbox.credentials.keyFile();
  if (!keyFile) throw new Error("the sandbox has no private key");
  const key = await importPKCS8(parts.privateKeyPem ?? keyFile.privateKey, "RS256");
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = {
    iss: keyFile.serviceAccountId,
    sub: keyFile.serviceAccountId,
    aud: sandbox.tokenEndpoint,
    exp: now + 300,
    ...parts.claims,
  };
  const header = { alg: "RS256", typ: "JWT", kid: keyFile.keyId, ...parts.header };
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key);
}

/** Posts a token request with the sandbox's client credentials unless overridden. */
export async function tokenRequest(
  sandbox: TestSandbox,
  fields: Record<string, string | undefined>,
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const form = new URLSearchParams();
  const all: Record<string, string | undefined> = {
    grant_type: GRANT,
    client_id: sandbox.credentials.clientId,
    client_secret: sandbox.credentials.clientSecret,
    ...fields,
  };
  for (const [name, value] of Object.entries(all)) if (value !== undefined) form.set(name, value);
  const res = await sandbox.fetch(sandbox.tokenEndpoint, { method: "POST", body: form });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

/** An access token for `sub` (default: the service account itself). */
export async function tokenFor(sandbox: TestSandbox, sub?: string): Promise<string> {
  const assertion = await signAssertion(sandbox, sub === undefined ? {} : { claims: { sub } });
  const { status, body } = await tokenRequest(sandbox, { assertion });
  if (status !== 200) throw new Error(`token request failed: ${status} ${JSON.stringify(body)}`);
  return body.access_token as string;
}

/** A `client` holding a fresh token for `sub` (the service account when absent). */
export async function clientAs(sandbox: TestSandbox, sub?: string) {
  return client(sandbox, await tokenFor(sandbox, sub));
}

/** Form text of fields, a list as the field repeated (the service's wire form for PUT and POST). */
export function formText(fields: Record<string, string | readonly string[]>): string {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    for (const item of typeof value === "string" ? [value] : value) form.append(name, item);
  }
  return form.toString();
}

/**
 * A tiny API client: `{ status, body, headers }` out. `body` goes out as form fields (lists as repeated
 * fields), the way the service takes PUT and POST parameters; `json` as JSON, for the refusals.
 */
export function client(sandbox: TestSandbox, token: string | undefined, scheme = "Bearer") {
  return async (
    method: string,
    path: string,
    init: {
      body?: Record<string, string | readonly string[]>;
      json?: unknown;
      headers?: Record<string, string>;
    } = {},
  ): Promise<{ status: number; body: unknown; headers: Headers }> => {
    const headers: Record<string, string> = { ...init.headers };
    if (token !== undefined) headers.authorization = `${scheme} ${token}`;
    let body: string | undefined;
    if (init.body !== undefined) {
      body = formText(init.body);
      headers["content-type"] ??= "application/x-www-form-urlencoded";
    } else if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers["content-type"] ??= "application/json";
    }
    const res = await sandbox.fetch(`${sandbox.url}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    const text = await res.text();
    return { status: res.status, body: text === "" ? undefined : JSON.parse(text), headers: res.headers };
  };
}

/**
 * Asserts a refusal: its status and the page's error identifier (and the parameter it names, when
 * given), the pair every family's error tests check.
 */
export function expectRefused(
  answer: { status: number; body: unknown },
  status: number,
  id: string,
  parameter?: string,
): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  expect(answer.body).toMatchObject({ ID: id, ...(parameter === undefined ? {} : { parameter }) });
}

/** A request through a client and the refusal it must get: its status and the page's error identifier. */
export type Refusal = readonly [
  api: ReturnType<typeof client>,
  method: string,
  path: string,
  status: number,
  id: string,
  init?: Parameters<ReturnType<typeof client>>[2],
];

/**
 * Sends each request in turn and asserts its refusal, naming the request that was answered otherwise:
 * the table form of `expectRefused`, for the errors of a page that do not depend on each other.
 */
export async function expectRefusals(refusals: readonly Refusal[]): Promise<void> {
  for (const [api, method, path, status, id, init] of refusals) {
    const answer = await api(method, path, init);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
    expect(answer.body, `${method} ${path}`).toMatchObject({ ID: id });
  }
}
