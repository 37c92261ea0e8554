/**
 * Sorts the operations of a bundle by what the description says of their answers and requests:
 * answers that name fields, message-only answers (`Message`), empty answers (`EmptyObject` or a
 * 204 without content), typed request bodies and error tables (`x-errors`). Each is counted as
 * observed (it carries `x-observed`) or as given by the interface. `scripts/answers.ts` prints the
 * counts; `test/answers-command.test.ts` checks the sorting.
 */
import { API_VERSIONS, type ApiVersionInfo, apiVersionOf } from "@drill-practice/tooling/api-versions";
import { listOperations } from "@drill-practice/tooling/operations";

/** The parts of an OpenAPI document this module reads. */
export interface BundleDocument {
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown> | undefined>;
}

/** The API version an operation belongs to, or `auth` for the token exchange and discovery. */
export type ApiVersion = ApiVersionInfo["id"] | "auth";

/** What one operation's success answer is. */
export type AnswerKind = "fields" | "message" | "empty" | "open";

/** How one operation of the bundle was sorted. */
export interface OperationKinds {
  operationId: string;
  method: string;
  path: string;
  version: ApiVersion;
  answer: AnswerKind;
  /** Name of the answer's schema component, when it has one. */
  answerSchema?: string;
  answerObserved: boolean;
  /** Whether the request body names its fields (is neither absent nor an open form or upload). */
  typedRequest: boolean;
  requestObserved: boolean;
  errorTable: boolean;
}

/** Answer schemas that name no fields of their own. */
const MESSAGE = "Message";
const EMPTY = "EmptyObject";
const OPEN_ANSWERS = new Set(["NotShown"]);
/** Request bodies that leave their fields open: any form field, any multipart part. */
const OPEN_REQUESTS = new Set(["FormFields", "MultipartBody"]);

type Node = Record<string, unknown>;

function deref(document: BundleDocument, node: unknown): Node | undefined {
  let current = node as Node | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 10; hops++) {
    const [, kind, name] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(current.$ref) ?? [];
    if (kind === undefined || name === undefined) throw new Error(`unsupported $ref ${current.$ref}`);
    const target = document.components?.[kind]?.[name] as Node | undefined;
    if (!target) throw new Error(`$ref ${current.$ref} points nowhere`);
    // A reference with siblings (OpenAPI 3.1) keeps them: `x-observed` beside a `$ref` counts.
    const { $ref: _ref, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

function schemaName(schema: unknown): string | undefined {
  const ref = (schema as Node | undefined)?.$ref;
  return typeof ref === "string" ? ref.split("/").pop() : undefined;
}

/**
 * The version of an operation, from its path.
 *
 * @example
 * ```ts
 * import { versionOf } from "./answer-kinds.ts";
 *
 * versionOf("/api/2.1.1/user"); // "2.1.1"
 * versionOf("/api/2.1/user"); // "2.1"
 * versionOf("/api/2/user"); // "2.0"
 * versionOf("/daas/oauth/token"); // "auth"
 * ```
 */
export function versionOf(path: string): ApiVersion {
  return apiVersionOf(path)?.id ?? "auth";
}

function isSuccess(status: string): boolean {
  return /^2(?:XX|xx|\d\d)$/.test(status);
}

function classifyAnswer(
  document: BundleDocument,
  responses: Node,
): Pick<OperationKinds, "answer" | "answerSchema" | "answerObserved"> {
  let best: Pick<OperationKinds, "answer" | "answerSchema" | "answerObserved"> = {
    answer: "open",
    answerObserved: false,
  };
  const rank: Record<AnswerKind, number> = { open: 0, empty: 1, message: 2, fields: 3 };
  for (const [status, raw] of Object.entries(responses)) {
    if (!isSuccess(status)) continue;
    const response = deref(document, raw) ?? {};
    const content = (response.content ?? {}) as Record<string, Node>;
    const media = Object.values(content);
    const responseObserved = "x-observed" in response;
    let found: Pick<OperationKinds, "answer" | "answerSchema" | "answerObserved">;
    if (media.length === 0) {
      found = { answer: status === "204" ? "empty" : "open", answerObserved: responseObserved };
    } else {
      const schema = media[0]?.schema;
      const name = schemaName(schema);
      const resolved = deref(document, schema) ?? {};
      const observed = responseObserved || "x-observed" in resolved;
      if (name === MESSAGE) found = { answer: "message", answerSchema: name, answerObserved: observed };
      else if (name === EMPTY) found = { answer: "empty", answerSchema: name, answerObserved: observed };
      else if (schema === undefined || (name !== undefined && OPEN_ANSWERS.has(name)))
        found = { answer: "open", answerObserved: false };
      else found = { answer: "fields", answerObserved: observed, ...(name ? { answerSchema: name } : {}) };
    }
    if (rank[found.answer] > rank[best.answer]) best = found;
  }
  return best;
}

function classifyRequest(
  document: BundleDocument,
  requestBody: unknown,
): Pick<OperationKinds, "typedRequest" | "requestObserved"> {
  const body = deref(document, requestBody);
  if (!body) return { typedRequest: false, requestObserved: false };
  const media = Object.values((body.content ?? {}) as Record<string, Node>);
  const schema = media[0]?.schema;
  const name = schemaName(schema);
  if (schema === undefined || (name !== undefined && OPEN_REQUESTS.has(name))) {
    return { typedRequest: false, requestObserved: false };
  }
  const resolved = deref(document, schema) ?? {};
  return { typedRequest: true, requestObserved: "x-observed" in body || "x-observed" in resolved };
}

/**
 * Every operation of a bundle, sorted.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type BundleDocument, classifyOperations } from "./answer-kinds.ts";
 *
 * const bundle: BundleDocument = JSON.parse(readFileSync("dist/openapi.json", "utf8"));
 * for (const { method, path, answer } of classifyOperations(bundle)) console.log(method, path, answer);
 * ```
 */
export function classifyOperations(document: BundleDocument): OperationKinds[] {
  return listOperations<Node>(document).map(({ method, path, operation }) => ({
    operationId: String(operation.operationId),
    method: method.toUpperCase(),
    path,
    version: versionOf(path),
    ...classifyAnswer(document, (operation.responses ?? {}) as Node),
    ...classifyRequest(document, operation.requestBody),
    errorTable: operation["x-errors"] !== undefined,
  }));
}

/** One row of counts: how many in all, and how many of those are observed. */
export interface Count {
  total: number;
  observed: number;
}

/** The counts of one version. */
export interface VersionCounts {
  version: ApiVersion;
  operations: number;
  fields: Count;
  message: Count;
  empty: Count;
  typedRequests: Count;
  errorTables: Count;
}

/**
 * The counts per version, in the order 2.1, 2.0, auth. An error table always comes from a page, so
 * every one counts as observed.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type BundleDocument, classifyOperations, countByVersion } from "./answer-kinds.ts";
 *
 * const bundle: BundleDocument = JSON.parse(readFileSync("dist/openapi.json", "utf8"));
 * countByVersion(classifyOperations(bundle)).map((c) => `${c.version}: ${c.fields.total}`);
 * ```
 */
export function countByVersion(kinds: readonly OperationKinds[]): VersionCounts[] {
  return [...API_VERSIONS.map((v) => v.id), "auth" as const].map((version) => {
    const of = kinds.filter((k) => k.version === version);
    const count = (pick: (k: OperationKinds) => boolean, observed: (k: OperationKinds) => boolean) => {
      const picked = of.filter(pick);
      return { total: picked.length, observed: picked.filter(observed).length };
    };
    return {
      version,
      operations: of.length,
      fields: count(
        (k) => k.answer === "fields",
        (k) => k.answerObserved,
      ),
      message: count(
        (k) => k.answer === "message",
        (k) => k.answerObserved,
      ),
      empty: count(
        (k) => k.answer === "empty",
        (k) => k.answerObserved,
      ),
      typedRequests: count(
        (k) => k.typedRequest,
        (k) => k.requestObserved,
      ),
      errorTables: count(
        (k) => k.errorTable,
        () => true,
      ),
    };
  });
}

const LABELS: Record<ApiVersion, string> = {
  ...(Object.fromEntries(API_VERSIONS.map((v) => [v.id, `API ${v.id}`])) as Record<
    ApiVersionInfo["id"],
    string
  >),
  auth: "token+discovery",
};

const KINDS = [
  ["answers naming fields", (v: VersionCounts) => v.fields],
  ["message-only answers", (v: VersionCounts) => v.message],
  ["empty answers", (v: VersionCounts) => v.empty],
  ["typed requests", (v: VersionCounts) => v.typedRequests],
  ["error tables (x-errors)", (v: VersionCounts) => v.errorTables],
] as const;

/**
 * The counts as a plain-text table: one line per kind, one column per version and a total column;
 * each cell is `total (observed obs., given by the interface if.)`.
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { type BundleDocument, classifyOperations, countByVersion, formatCounts } from "./answer-kinds.ts";
 *
 * const bundle: BundleDocument = JSON.parse(readFileSync("dist/openapi.json", "utf8"));
 * console.log(formatCounts(countByVersion(classifyOperations(bundle))));
 * ```
 */
export function formatCounts(counts: readonly VersionCounts[]): string {
  const cell = (c: Count) => `${c.total} (${c.observed} obs., ${c.total - c.observed} if.)`;
  const total = (pick: (v: VersionCounts) => Count): Count => ({
    total: counts.reduce((n, v) => n + pick(v).total, 0),
    observed: counts.reduce((n, v) => n + pick(v).observed, 0),
  });
  const header = ["kind", ...counts.map((v) => LABELS[v.version]), "all"];
  const rows = [
    [
      "operations",
      ...counts.map((v) => String(v.operations)),
      String(counts.reduce((n, v) => n + v.operations, 0)),
    ],
    ...KINDS.map(([label, pick]) => [label, ...counts.map((v) => cell(pick(v))), cell(total(pick))]),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  const legend = "each cell: how many (obs. = observed, marked x-observed; if. = given by the interface)";
  return [line(header), ...rows.map(line), legend].join("\n").replace(/ +$/gm, "");
}
