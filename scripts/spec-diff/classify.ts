/**
 * Compares two OpenAPI documents and classifies every difference as breaking, non-breaking or
 * documentation only, from the point of view of a consumer of the generated client types.
 *
 * `api-smart-diff` finds the differences (it resolves `$ref`s, matches parameters by name and
 * location, media types and statuses by key) and classifies most of them; the rules of
 * `OWN_RULES` below correct the cases where its classification is wrong for a consumer of this
 * API (each finding says which of the two classified it).
 */

import { escapeToken, isRecord, pointerTarget, unescapeToken } from "@drill-practice/tooling/json-pointer";
import { isHttpMethod } from "@drill-practice/tooling/operations";
import { apiDiff, type Diff } from "api-smart-diff";

export type Severity = "breaking" | "non-breaking" | "documentation";
/** Where a change sits: what a consumer sends, what it reads, the operation itself, or elsewhere. */
export type Side = "request" | "answer" | "operation" | "document";

/** One classified difference. */
export interface Finding {
  readonly severity: Severity;
  /** `METHOD /path (operationId)` of the operation it belongs to, or `components`/`document`. */
  readonly group: string;
  /** Strings that name the change in a changeset: operationIds, `METHOD /path`, a component name. */
  readonly names: readonly string[];
  readonly side: Side;
  /** JSON pointer into the document with `$ref`s resolved (RFC 6901). */
  readonly pointer: string;
  readonly action: "add" | "remove" | "replace" | "rename";
  readonly before?: unknown;
  readonly after?: unknown;
  /** What changed and, for a breaking change, why it breaks consumers. */
  readonly reason: string;
  /** `api-smart-diff`, or `own: <rule>` for a rule of this repository. */
  readonly rule: string;
}

type Segment = string | number;
type Doc = Record<string, unknown>;
const TIGHTER_WHEN_LARGER = new Set([
  "minimum",
  "exclusiveMinimum",
  "minLength",
  "minItems",
  "minProperties",
]);
const TIGHTER_WHEN_SMALLER = new Set([
  "maximum",
  "exclusiveMaximum",
  "maxLength",
  "maxItems",
  "maxProperties",
]);

/** RFC 6901 pointer of a path of segments. */
export function toPointer(path: readonly Segment[]): string {
  return path.map((segment) => `/${escapeToken(segment)}`).join("");
}

/**
 * The node at a path of `api-smart-diff` (which walks through `$ref`s), or undefined. `components`,
 * when given, receives the name of each component the walk passes through.
 */
function resolveAt(doc: Doc, path: readonly Segment[], components?: Set<string>): unknown {
  const deref = (node: unknown): unknown => {
    let current = node;
    for (let hops = 0; isRecord(current) && typeof current.$ref === "string" && hops < 20; hops++) {
      const ref: string = current.$ref;
      if (!ref.startsWith("#/")) return current;
      const component = /^#\/components\/[^/]+\/([^/]+)$/.exec(ref)?.[1];
      if (component !== undefined) components?.add(unescapeToken(component));
      current = pointerTarget(doc, ref);
    }
    return current;
  };
  let node: unknown = doc;
  for (const segment of path) {
    node = deref(node);
    if (Array.isArray(node) && typeof segment === "number") node = node[segment];
    else if (isRecord(node)) node = node[String(segment)];
    else return undefined;
  }
  return deref(node);
}

function typeSet(value: unknown): Set<string> {
  if (typeof value === "string") return new Set([value]);
  if (Array.isArray(value))
    return new Set(value.filter((entry): entry is string => typeof entry === "string"));
  return new Set();
}

function isSubset(small: Set<string>, large: Set<string>): boolean {
  for (const entry of small) if (!large.has(entry)) return false;
  return true;
}

/** Where in an operation a path points, and the operation it belongs to. */
interface Place {
  side: Side;
  group: string;
  names: string[];
  /** The path below the operation's `requestBody`/`parameters`/`responses` entry. */
  inner: readonly Segment[];
}

function placeOf(path: readonly Segment[], before: Doc, after: Doc): Place {
  const [root, route, method, part] = path;
  if (root === "paths" && typeof route === "string") {
    if (typeof method === "string" && isHttpMethod(method)) {
      const operationId = (doc: Doc) => {
        const operation = resolveAt(doc, ["paths", route, method]);
        return isRecord(operation) && typeof operation.operationId === "string"
          ? operation.operationId
          : undefined;
      };
      const ids = [...new Set([operationId(before), operationId(after)].filter((id) => id !== undefined))];
      const label = `${method.toUpperCase()} ${route}`;
      const side: Side =
        part === "parameters" || part === "requestBody"
          ? "request"
          : part === "responses"
            ? "answer"
            : "operation";
      return {
        side,
        group: ids.length > 0 ? `${label} (${ids.join(" → ")})` : label,
        names: [...ids, label],
        inner: path.slice(4),
      };
    }
    const side: Side = method === "parameters" ? "request" : "operation";
    // A change for every operation of the path is named by the path or any of its operations.
    const ids = [...new Set([...operationIdsUnder(before, route), ...operationIdsUnder(after, route)])];
    return { side, group: `${route} (every operation)`, names: [route, ...ids], inner: path.slice(3) };
  }
  if (root === "components" && typeof path[2] === "string") {
    return { side: "document", group: "components", names: [String(path[2])], inner: path.slice(3) };
  }
  return { side: "document", group: "document", names: [], inner: path };
}

interface Context {
  diff: Diff;
  path: readonly Segment[];
  place: Place;
  before: Doc;
  after: Doc;
  last: Segment | undefined;
  parent: Segment | undefined;
}

type Verdict = { severity: Severity; reason: string };
type OwnRule = { name: string; test: (context: Context) => Verdict | undefined };

/**
 * The classifications `api-smart-diff` 1.0.6 gets wrong for a consumer of this API, found by the
 * cases of `classify.test.ts`. Each returns undefined when it does not apply.
 */
const OWN_RULES: readonly OwnRule[] = [
  {
    // It calls an added tag breaking. Tags and tag groups order the docs' menu; no generated type
    // carries them.
    name: "tags",
    test: ({ path }) =>
      path[0] === "tags" || path[0] === "x-tagGroups"
        ? { severity: "documentation", reason: "documentation: the tags that order the references' menu" }
        : undefined,
  },
  {
    // It leaves changes inside a schema's `x-` extensions unclassified (so breaking). Ours are notes
    // for readers, except `x-known-values`, which names the values of an open string in the types.
    name: "extension",
    test: ({ path }) => {
      const extension = path.find((segment) => typeof segment === "string" && segment.startsWith("x-"));
      if (extension === undefined) return undefined;
      return extension === "x-known-values"
        ? {
            severity: "non-breaking",
            reason:
              "known values of an open string: the generated type names them, and any other string still fits",
          }
        : { severity: "documentation", reason: `documentation: the ${String(extension)} note` };
    },
  },
  {
    // It calls this an annotation; the generated `operations` type is keyed by operationId.
    name: "operationId-renamed",
    test: ({ last, path, diff }) =>
      last === "operationId" && path.length === 4 && diff.action !== "add"
        ? {
            severity: "breaking",
            reason:
              'operationId renamed: the key of the generated `operations` type changes, so code that names `operations["old"]` no longer compiles',
          }
        : undefined,
  },
  {
    // It calls a renamed path template (`{group}` → `{groupId}`) a harmless rename: the generated
    // `paths` type is keyed by the template, so every call written with the old one stops compiling.
    name: "path-renamed",
    test: ({ path, diff }) =>
      path.length === 1 && path[0] === "paths" && diff.action === "rename"
        ? {
            severity: "breaking",
            reason: `path template renamed (${String(diff.before)} → ${String(diff.after)}): the key of the generated \`paths\` type changes, so calls written with the old one no longer compile`,
          }
        : undefined,
  },
  {
    // It calls a renamed parameter non-breaking: calls that pass it under the old name no longer
    // compile (`params.path.group` is not `params.path.groupId`), and the service no longer reads it.
    name: "parameter-renamed",
    test: ({ path, last, diff }) =>
      last === "name" && path.at(-3) === "parameters" && diff.action === "replace"
        ? {
            severity: "breaking",
            reason: `parameter renamed (\`${String(diff.before)}\` → \`${String(diff.after)}\`): calls that pass it under the old name no longer compile`,
          }
        : undefined,
  },
  {
    // It calls a removed optional field non-breaking on both sides.
    name: "field-removed",
    test: ({ parent, diff, place, last }) =>
      parent === "properties" && diff.action === "remove" && place.side !== "operation"
        ? {
            severity: "breaking",
            reason:
              place.side === "request"
                ? `removed field \`${String(last)}\`: code that sends it no longer compiles, and the service no longer reads it`
                : `removed field \`${String(last)}\`: code that reads it no longer compiles and gets undefined at run time`,
          }
        : undefined,
  },
  {
    // It misreads type lists: a widened request type is not breaking, a widened or changed answer type is.
    name: "type-changed",
    test: ({ last, parent, diff, place }) => {
      if (place.side !== "request" && place.side !== "answer") return undefined;
      let widened: boolean;
      let narrowed: boolean;
      let gainsNull = false;
      if (last === "type" && diff.action === "replace") {
        const old = typeSet(diff.before);
        const now = typeSet(diff.after);
        widened = isSubset(old, now) && now.size > old.size;
        narrowed = isSubset(now, old) && now.size < old.size;
        gainsNull = !old.has("null") && now.has("null");
      } else if (parent === "type" && typeof last === "number" && diff.action !== "replace") {
        widened = diff.action === "add";
        narrowed = diff.action === "remove";
        gainsNull = diff.action === "add" && diff.after === "null";
      } else return undefined;
      const from = JSON.stringify(diff.before ?? null);
      const to = JSON.stringify(diff.after ?? null);
      if (place.side === "request")
        return widened
          ? {
              severity: "non-breaking",
              reason: `request type widened (${from} → ${to}): every value sent before is still valid`,
            }
          : {
              severity: "breaking",
              reason: narrowed
                ? `request type narrowed (${from} → ${to}): values sent before are refused`
                : `request type changed (${from} → ${to}): values sent before no longer match`,
            };
      if (narrowed)
        return {
          severity: "non-breaking",
          reason: `answer type narrowed (${from} → ${to}): every value read is still of the old type`,
        };
      return {
        severity: "breaking",
        reason: gainsNull
          ? `answer field becomes nullable (${from} → ${to}): code using the value without a null check no longer compiles`
          : widened
            ? `answer type widened (${from} → ${to}): code that handles only the old type no longer compiles`
            : `answer type changed (${from} → ${to}): code reading the old type no longer compiles`,
      };
    },
  },
  {
    // It treats closing an open value set (adding `enum`) or opening a closed one as a value change.
    name: "value-set-opened-or-closed",
    test: ({ parent, diff, place, path, before, after }) => {
      if (parent !== "enum" || (place.side !== "request" && place.side !== "answer")) return undefined;
      const schemaPath = path.slice(0, -2);
      const hadEnum = Array.isArray((resolveAt(before, schemaPath) as { enum?: unknown } | undefined)?.enum);
      const hasEnum = Array.isArray((resolveAt(after, schemaPath) as { enum?: unknown } | undefined)?.enum);
      if (diff.action === "add" && !hadEnum && hasEnum)
        return place.side === "request"
          ? {
              severity: "breaking",
              reason: "accepted values closed to a list: values outside it, accepted before, are refused",
            }
          : {
              severity: "non-breaking",
              reason: "answer values closed to a list: every value read was possible before",
            };
      if (diff.action === "remove" && hadEnum && !hasEnum)
        return place.side === "request"
          ? { severity: "non-breaking", reason: "accepted values no longer limited to a list" }
          : {
              severity: "breaking",
              reason:
                "answer values no longer limited to a list: code that handles only the listed values no longer compiles",
            };
      return undefined;
    },
  },
  {
    // It calls `additionalProperties: false` on a request body a harmless addition, and on an answer a breaking one.
    name: "additional-properties-closed",
    test: ({ last, diff, place }) => {
      if (last !== "additionalProperties" || diff.after !== false || diff.before === false) return undefined;
      if (place.side === "request")
        return {
          severity: "breaking",
          reason:
            "request object closed (`additionalProperties: false`): extra fields, accepted before, are refused",
        };
      if (place.side === "answer")
        return {
          severity: "non-breaking",
          reason: "answer object closed (`additionalProperties: false`): fewer shapes to handle",
        };
      return undefined;
    },
  },
  {
    // It calls a loosened answer constraint (a longer maximum length) breaking: the generated types do not
    // change and every value read is still of its type, so for a consumer of the types it is not.
    name: "answer-constraint",
    test: ({ last, place }) =>
      place.side === "answer" &&
      typeof last === "string" &&
      (TIGHTER_WHEN_LARGER.has(last) ||
        TIGHTER_WHEN_SMALLER.has(last) ||
        last === "pattern" ||
        last === "format")
        ? {
            severity: "non-breaking",
            reason: `answer constraint \`${last}\` changed: the generated types stay the same`,
          }
        : undefined,
  },
  {
    // It has a category of its own for deprecation; for a consumer it is a non-breaking notice.
    name: "deprecated",
    test: ({ diff }) =>
      diff.type === "deprecated"
        ? { severity: "non-breaking", reason: "deprecation notice: the operation or value still works" }
        : undefined,
  },
];

/** Why a change `api-smart-diff` classified is what it is, in the words of the changelog. */
function reasonFor(context: Context, severity: Severity): string {
  const { diff, place, last, parent } = context;
  const what = diff.description?.replace(/^\[\w+\]\s*/, "") ?? `${diff.action} ${String(last)}`;
  if (severity === "documentation") return `documentation: ${what}`;
  if (severity === "non-breaking") return what;
  const why = (() => {
    if (place.side === "operation" && context.path.length === 3) return "removed operation: calls to it fail";
    if (last === "required" || parent === "required")
      return place.side === "answer"
        ? "answer field becomes optional: under strictNullChecks, code using it without a check no longer compiles"
        : "new required value: calls that leave it out are refused";
    if (parent === "parameters")
      return diff.action === "add"
        ? "new required parameter: calls without it are refused and no longer compile"
        : "removed parameter: calls that send it no longer compile";
    if (parent === "enum")
      return place.side === "answer"
        ? "new value in a closed set: an exhaustive switch over the old values no longer compiles"
        : "removed accepted value: calls that send it are refused";
    if (parent === "content") return "removed media type: consumers that send or read it break";
    if (parent === "responses") return "removed status: code that handles it no longer compiles";
    if (
      typeof last === "string" &&
      (TIGHTER_WHEN_LARGER.has(last) || TIGHTER_WHEN_SMALLER.has(last) || last === "pattern")
    )
      return "tightened constraint: values accepted before are refused";
    return "a consumer written against the old description can break";
  })();
  return `${why} (${what})`;
}

function librarySeverity(type: Diff["type"]): Severity {
  if (type === "annotation") return "documentation";
  if (type === "non-breaking" || type === "deprecated") return "non-breaking";
  // `unclassified` included: a change nobody classified is treated as breaking until a rule says otherwise.
  return "breaking";
}

const RANGE = /^[1-5]XX$/;

/**
 * A copy with the status ranges of every `responses` written in lower case: api-smart-diff does not
 * walk into `2XX` (upper case, as OpenAPI writes it and this spec uses), only into `2xx`.
 */
function withLowerCaseRanges(doc: Doc): Doc {
  const copy = structuredClone(doc);
  for (const item of Object.values((copy.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const operation of Object.values(item ?? {})) {
      if (!isRecord(operation) || !isRecord(operation.responses)) continue;
      operation.responses = Object.fromEntries(
        Object.entries(operation.responses).map(([code, value]) => [
          RANGE.test(code) ? code.toLowerCase() : code,
          value,
        ]),
      );
    }
  }
  return copy;
}

/** The path with each status range spelled as the documents spell it. */
function restoreRanges(path: readonly Segment[], before: Doc, after: Doc): Segment[] {
  return path.map((segment, index) => {
    if (typeof segment !== "string" || path[index - 1] !== "responses" || !/^[1-5]xx$/.test(segment))
      return segment;
    const upper = segment.toUpperCase();
    const spelled = [before, after].some((doc) => {
      const responses = resolveAt(doc, path.slice(0, index));
      return isRecord(responses) && upper in responses;
    });
    return spelled ? upper : segment;
  });
}

/** Every `#/components/<kind>/<name>` reachable from the paths of a document. */
function componentsReachedFromPaths(doc: Doc): Set<string> {
  const found = new Set<string>();
  const components = (doc.components ?? {}) as Record<string, Record<string, unknown>>;
  const queue: unknown[] = [doc.paths];
  while (queue.length > 0) {
    const node = queue.pop();
    if (Array.isArray(node)) queue.push(...node);
    else if (isRecord(node)) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string" && value.startsWith("#/components/")) {
          const [kind = "", name = ""] = value.slice("#/components/".length).split("/");
          const id = `${kind}/${unescapeToken(name)}`;
          if (!found.has(id)) {
            found.add(id);
            queue.push(components[kind]?.[id.slice(kind.length + 1)]);
          }
        } else queue.push(value);
      }
    }
  }
  return found;
}

/** The operationIds of the operations under a path template. */
function operationIdsUnder(doc: Doc, route: string): string[] {
  const item = resolveAt(doc, ["paths", route]);
  if (!isRecord(item)) return [];
  return Object.entries(item)
    .filter(([method]) => isHttpMethod(method))
    .map(([, operation]) => (isRecord(operation) ? operation.operationId : undefined))
    .filter((id): id is string => typeof id === "string");
}

/**
 * What a changeset may write to name a finding: a renamed operationId by its old or new name, a
 * renamed path by its old or new template or an operationId under it, anything else by its
 * operation, and a change inside a shared component also by the component's name (one name
 * covers every operation that uses it).
 */
function namesOf(rule: string, { diff, path, place, before, after }: Context): string[] {
  if (rule === "own: operationId-renamed") return [String(diff.before), String(diff.after)];
  if (rule === "own: path-renamed") {
    const [old, now] = [String(diff.before), String(diff.after)];
    return [...new Set([old, now, ...operationIdsUnder(before, old), ...operationIdsUnder(after, now)])];
  }
  const components = new Set<string>();
  resolveAt(before, path, components);
  resolveAt(after, path, components);
  return [...new Set([...place.names, ...components])];
}

/**
 * The classified differences between two OpenAPI documents, in document order.
 *
 * @example
 * ```ts
 * import { classifyChanges } from "./classify.ts";
 *
 * const doc = (required: string[]) => ({
 *   openapi: "3.1.0",
 *   info: { title: "t", version: "1" },
 *   paths: {},
 *   components: { schemas: { A: { type: "object", required, properties: { a: { type: "string" } } } } },
 * });
 * console.log(classifyChanges(doc([]), doc(["a"])).length); // 1
 * ```
 */
export function classifyChanges(before: Doc, after: Doc): Finding[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  // A component used by an operation is reported where the operation uses it (resolved), not twice.
  const reached = new Set([...componentsReachedFromPaths(before), ...componentsReachedFromPaths(after)]);
  const findings: Finding[] = [];
  // api-smart-diff writes into the documents it compares (an absent `enum` becomes `[]`): give it copies.
  const diffs = apiDiff(withLowerCaseRanges(before), withLowerCaseRanges(after)).map((diff) => {
    const path = restoreRanges(diff.path as Segment[], before, after);
    const respelled = path.some((segment, index) => segment !== diff.path[index]);
    return {
      ...diff,
      path,
      // Its text names the range as it was given to it ("Response 2xx"): spell it back too.
      ...(respelled && diff.description
        ? { description: diff.description.replace(/\bResponse ([1-5])xx\b/g, "Response $1XX") }
        : {}),
    };
  });
  const pathTails = diffs.filter((diff) => diff.path[0] === "paths").map((diff) => toPointer(diff.path));
  for (const diff of diffs) {
    const path = diff.path as Segment[];
    if (path[0] === "components" && reached.has(`${String(path[1])}/${String(path[2])}`)) {
      // Reported under the operations that use it, unless api-smart-diff did not follow it there.
      const tail = toPointer(path.slice(3));
      if (tail === "" || pathTails.some((pointer) => pointer.endsWith(tail))) continue;
    }
    const place = placeOf(path, before, after);
    const context: Context = { diff, path, place, before, after, last: path.at(-1), parent: path.at(-2) };
    let verdict: Verdict | undefined;
    let rule = "api-smart-diff";
    for (const own of OWN_RULES) {
      verdict = own.test(context);
      if (verdict) {
        rule = `own: ${own.name}`;
        break;
      }
    }
    if (!verdict) {
      const severity = librarySeverity(diff.type);
      verdict = { severity, reason: reasonFor(context, severity) };
    }
    findings.push({
      severity: verdict.severity,
      group: rule === "own: path-renamed" ? `${String(diff.before)} → ${String(diff.after)}` : place.group,
      // A rename is named by its operationIds: naming the method and path says nothing about the key.
      names: namesOf(rule, context),
      side: place.side,
      pointer: toPointer(path),
      action: diff.action,
      ...(diff.before === undefined ? {} : { before: diff.before }),
      ...(diff.after === undefined ? {} : { after: diff.after }),
      reason: verdict.reason,
      rule,
    });
  }
  return findings;
}
