/**
 * What changes for code that moves from one API version to the next (2.1 → 2.1.1): each
 * operation of the older version with its counterpart in the newer one, and what differs between
 * the two, judged by the spec diff's own comparison (`classifyChanges`), so the "Migrating to
 * 2.1.1" page and the spec README cannot say anything the description does not.
 *
 * A counterpart has the same method and the same path template once the version prefix and the
 * names of path parameters are set aside; paths the newer version renamed are matched by
 * {@link RENAMED_PATHS}.
 */
import { apiVersion } from "@drill-practice/tooling/api-versions";
import { listOperations, type OperationAt } from "@drill-practice/tooling/operations";
import { classifyChanges, type Finding } from "./classify.ts";

type Doc = Record<string, unknown>;
type Operation = Record<string, unknown> & { operationId: string; parameters?: unknown[] };

/** One operation: where it is and what it is called. */
export interface OperationRef {
  readonly method: string;
  readonly path: string;
  readonly operationId: string;
}

/** What differs between an operation and its counterpart, in the spec diff's words. */
export interface MigrationChanges {
  /** The path differs beyond the version prefix (a renamed segment, a parameter's name). */
  readonly path: boolean;
  readonly parameters: readonly string[];
  readonly fields: readonly string[];
  readonly answer: readonly string[];
  readonly errors: readonly string[];
}

/** An operation of the older version and what became of it. */
export interface MigrationEntry {
  readonly from: OperationRef;
  /** Its counterpart, or undefined where the newer version has no page for it. */
  readonly to?: OperationRef;
  readonly changes?: MigrationChanges;
}

/** The whole move from one version to the next. */
export interface Migration {
  readonly from: string;
  readonly to: string;
  readonly entries: readonly MigrationEntry[];
  /** Operations of the newer version that are no counterpart of any older one. */
  readonly added: readonly OperationRef[];
}

/**
 * Paths 2.1.1 renamed, by method and template of 2.1 (version prefix dropped, parameters `{}`):
 * the template of 2.1.1 they became.
 */
export const RENAMED_PATHS: Readonly<Record<string, string>> = {
  "GET test-result/{}": "test-results/{}",
  "PUT group/{}/objective/{}": "objective/{}",
  "PUT test/{}/{}/{}": "test/{}/accesses/{}/{}",
  "PUT group/{}/staff/{}/permission": "group/{}/staff/{}/{}",
};

/** The path template without its version prefix and with every parameter written `{}`. */
export function pathTemplate(path: string, prefix: string): string {
  return path.slice(prefix.length).replace(/\{[^}]+\}/g, "{}");
}

/** The key under which a counterpart is looked up: method and template, renames applied. */
function counterpartKey(method: string, path: string, prefix: string): string {
  const key = `${method.toUpperCase()} ${pathTemplate(path, prefix)}`;
  const renamed = RENAMED_PATHS[key];
  return renamed === undefined ? key : `${method.toUpperCase()} ${renamed}`;
}

/** Operation keys that say nothing about the call: names, notes and the version's retirement. */
const NOT_COMPARED = new Set([
  "operationId",
  "tags",
  "summary",
  "description",
  "deprecated",
  "x-retired",
  "x-observed",
  "x-undocumented",
  "x-errors",
]);

/**
 * The operation as a one-path document, path parameters named by position, so that two versions'
 * operations compare by what a caller sends and reads only.
 */
function comparable(at: OperationAt<Operation>, doc: Doc): Doc {
  const names = [...at.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
  const renamed = (parameter: unknown): unknown => {
    const resolved = resolveParameter(parameter, doc);
    const index = names.indexOf(String(resolved.name));
    return resolved.in === "path" && index >= 0 ? { ...resolved, name: `p${index}` } : resolved;
  };
  const kept = Object.fromEntries(Object.entries(at.operation).filter(([key]) => !NOT_COMPARED.has(key)));
  const parameters = [...at.pathParameters, ...(at.operation.parameters ?? [])].map(renamed);
  // One path for both sides: a renamed segment is reported once, as `path`, not as a new operation.
  const path = ["/operation", ...names.map((_name, index) => `{p${index}}`)].join("/");
  return {
    openapi: "3.1.0",
    info: { title: "migration", version: "1" },
    paths: { [path]: { [at.method]: { ...kept, parameters } } },
    components: reachedComponents({ ...kept, parameters }, doc),
  };
}

/**
 * The components an operation reaches, following `$ref`s: comparing two operations over these
 * alone is what keeps the comparison quick on the whole description.
 */
function reachedComponents(operation: unknown, doc: Doc): Record<string, Record<string, unknown>> {
  const all = (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  const kept: Record<string, Record<string, unknown>> = {};
  const queue: unknown[] = [operation];
  while (queue.length > 0) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key !== "$ref" || typeof value !== "string" || !value.startsWith("#/components/")) {
          queue.push(value);
          continue;
        }
        const [kind = "", name = ""] = value.slice("#/components/".length).split("/");
        const bucket = kept[kind] ?? {};
        kept[kind] = bucket;
        if (name in bucket) continue;
        bucket[name] = all[kind]?.[name];
        queue.push(bucket[name]);
      }
    }
  }
  return kept;
}

function resolveParameter(parameter: unknown, doc: Doc): Record<string, unknown> {
  const record = (parameter ?? {}) as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/components/parameters/")) return record;
  const parameters = ((doc.components as Doc | undefined)?.parameters ?? {}) as Record<string, unknown>;
  return (parameters[ref.slice("#/components/parameters/".length)] ?? record) as Record<string, unknown>;
}

/** The findings that matter to a caller, sorted into what it sends and what it reads. */
function sortFindings(findings: readonly Finding[]): Omit<MigrationChanges, "path"> {
  const parameters: string[] = [];
  const fields: string[] = [];
  const answer: string[] = [];
  const errors: string[] = [];
  for (const finding of findings) {
    if (finding.severity === "documentation") continue;
    // `/paths/<path>/<method>/<part>/…`
    const [, , , , part, status = ""] = finding.pointer.split("/");
    const line = finding.reason;
    if (part === "parameters") parameters.push(line);
    else if (part === "requestBody") fields.push(line);
    else if (part === "responses" && /^2/.test(status)) answer.push(line);
    else if (part === "responses") errors.push(line);
  }
  const unique = (lines: string[]) => [...new Set(lines)];
  return {
    parameters: unique(parameters),
    fields: unique(fields),
    answer: unique(answer),
    errors: unique(errors),
  };
}

/**
 * Every operation of `from` with its counterpart in `to` and what changed, plus the operations new
 * in `to`, from the full bundle (`spec/dist/openapi.json`).
 *
 * @example
 * ```ts
 * import { readFileSync } from "node:fs";
 * import { migration } from "./migration.ts";
 *
 * const full = JSON.parse(readFileSync("spec/dist/openapi.json", "utf8"));
 * const { entries, added } = migration(full, "2.1", "2.1.1");
 * console.log(entries.filter((entry) => entry.to === undefined).length, added.length);
 * ```
 */
export function migration(full: Doc, fromId: string, toId: string): Migration {
  const from = apiVersion(fromId);
  const to = apiVersion(toId);
  const operations = listOperations<Operation>(full);
  const newer = new Map(
    operations
      .filter(({ path }) => path.startsWith(to.prefix))
      .map((at) => [`${at.method.toUpperCase()} ${pathTemplate(at.path, to.prefix)}`, at]),
  );
  const matched = new Set<string>();
  const ref = (at: { method: string; path: string; operation: Operation }): OperationRef => ({
    method: at.method.toUpperCase(),
    path: at.path,
    operationId: at.operation.operationId,
  });
  const entries = operations
    .filter(({ path }) => path.startsWith(from.prefix))
    .map((older): MigrationEntry => {
      const key = counterpartKey(older.method, older.path, from.prefix);
      const counterpart = newer.get(key);
      if (counterpart === undefined) return { from: ref(older) };
      matched.add(key);
      const findings = classifyChanges(comparable(older, full), comparable(counterpart, full));
      const path = older.path.slice(from.prefix.length) !== counterpart.path.slice(to.prefix.length);
      return { from: ref(older), to: ref(counterpart), changes: { path, ...sortFindings(findings) } };
    });
  const added = [...newer.entries()].filter(([key]) => !matched.has(key)).map(([, at]) => ref(at));
  return { from: from.id, to: to.id, entries, added };
}

/**
 * Whether an entry's counterpart is the same call, apart from the version prefix.
 *
 * @example
 * ```ts
 * import { isUnchanged } from "./migration.ts";
 *
 * isUnchanged({ from: { method: "GET", path: "/api/2.1/x", operationId: "getX_v2_1" } }); // false: no counterpart
 * ```
 */
export function isUnchanged(entry: MigrationEntry): boolean {
  const changes = entry.changes;
  if (changes === undefined) return false;
  return (
    !changes.path &&
    [changes.parameters, changes.fields, changes.answer, changes.errors].every((lines) => lines.length === 0)
  );
}
