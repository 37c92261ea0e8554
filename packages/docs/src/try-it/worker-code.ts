/**
 * What the worker's copy of the sandbox leaves out: text the sandbox ships for readers and never reads
 * while it answers. The page already shows that text (its "In the sandbox" notes), and the sandbox
 * package keeps it for everyone else; only the bytes the first Send loads get smaller.
 *
 * - the `behaviour` sentence of each simulated operation in the resource families: the values of
 *   `SIMULATED_OPERATIONS`, written into the README and the page's notes; at run time the sandbox
 *   reads only which operations have one (the keys);
 * - the `schemaPath` of every error the precompiled validators report: Ajv's pointer into the schema,
 *   which no message of the sandbox names (a message says where in the request or answer, and which
 *   rule);
 * - in the description, what only a reader uses: the tags and their groups, the "not shown" lists
 *   other than an operation's own (which a `501` names), and the source and cut of an operation's
 *   error list (the sandbox reads its identifiers and statuses).
 */

import { isRecord } from "@drill-practice/tooling/json-pointer";
import { isHttpMethod } from "@drill-practice/tooling/operations";
import ts from "typescript";

/** A string written out in full: a literal, or literals joined with `+`. */
function isConstantText(node: ts.Expression): boolean {
  if (ts.isParenthesizedExpression(node)) return isConstantText(node.expression);
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return true;
  return (
    ts.isBinaryExpression(node) &&
    node.operatorToken.kind === ts.SyntaxKind.PlusToken &&
    isConstantText(node.left) &&
    isConstantText(node.right)
  );
}

/** Whether a property is named `behaviour`. */
const isBehaviour = (node: ts.Node): node is ts.PropertyAssignment =>
  ts.isPropertyAssignment(node) &&
  (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) &&
  node.name.text === "behaviour";

/**
 * The spans of behaviour text in a module: each `behaviour: <written-out text>`, and each module
 * constant of written-out text that only `behaviour` properties name (a sentence two operations share).
 */
function behaviourSpans(file: ts.SourceFile): [number, number][] {
  const spans: [number, number][] = [];
  const constants = new Map<string, ts.Expression>();
  const uses = new Map<string, { behaviour: number; other: number }>();
  const visit = (node: ts.Node): void => {
    if (isBehaviour(node) && isConstantText(node.initializer)) {
      spans.push([node.initializer.getStart(file), node.initializer.end]);
      return;
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const declaration = node.parent;
      if (ts.isVariableDeclarationList(declaration) && declaration.flags & ts.NodeFlags.Const)
        if (isConstantText(node.initializer)) constants.set(node.name.text, node.initializer);
      visit(node.initializer);
      return;
    }
    if (ts.isIdentifier(node)) {
      const count = uses.get(node.text) ?? { behaviour: 0, other: 0 };
      if (isBehaviour(node.parent) && node.parent.initializer === node) count.behaviour++;
      else count.other++;
      uses.set(node.text, count);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const [name, text] of constants) {
    const count = uses.get(name);
    if (count && count.behaviour > 0 && count.other === 0) spans.push([text.getStart(file), text.end]);
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * The module with every `behaviour: <written-out text>` property's text emptied, and the text of a
 * constant only such properties name; a `behaviour` computed otherwise stays as it is.
 *
 * @example
 * ```ts
 * import { withoutBehaviourText } from "./worker-code.ts";
 *
 * withoutBehaviourText('export const f = { behaviour: "lists " + "groups", handle };');
 * // 'export const f = { behaviour: "", handle };'
 * ```
 */
export function withoutBehaviourText(code: string): string {
  const file = ts.createSourceFile("module.js", code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  let kept = code;
  for (const [start, end] of behaviourSpans(file).reverse())
    kept = `${kept.slice(0, start)}""${kept.slice(end)}`;
  return kept;
}

/** Ajv's `schemaPath: "<pointer>"` in an error object of its standalone code. */
const SCHEMA_PATH = /,\s*schemaPath:\s*"(?:[^"\\]|\\.)*"/g;

/**
 * The precompiled validators without the `schemaPath` of their errors.
 *
 * @example
 * ```ts
 * import { withoutSchemaPaths } from "./worker-code.ts";
 *
 * withoutSchemaPaths('{ instancePath, schemaPath: "#/type", keyword: "type" }');
 * // '{ instancePath, keyword: "type" }'
 * ```
 */
export function withoutSchemaPaths(code: string): string {
  return code.replace(SCHEMA_PATH, "");
}

type Json = unknown;

/** One operation: its tags, and its error list's source and cut, left out. */
function operationForSandbox(operation: Record<string, Json>): Record<string, Json> {
  const { tags: _tags, ...kept } = operation;
  const errors = kept["x-errors"];
  if (isRecord(errors)) {
    const { source: _source, truncated: _truncated, ...list } = errors;
    kept["x-errors"] = list;
  }
  return kept;
}

/** Keys whose value is data (an example, a default, a set of values): never looked into. */
const DATA_KEYS = new Set(["example", "examples", "default", "const", "enum"]);

/** A value with every `x-undocumented` list left out, at any depth but inside data. */
function withoutUndocumentedLists(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutUndocumentedLists);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== "x-undocumented")
      .map(([key, inner]) => [key, DATA_KEYS.has(key) ? inner : withoutUndocumentedLists(inner)]),
  );
}

/**
 * The description as the worker's sandbox needs it (after `withoutProse`): no tags or tag groups,
 * an operation's own "not shown" list kept and all others left out, and of an operation's error
 * list only its identifiers.
 *
 * @example
 * ```ts
 * import { descriptionForSandbox } from "./worker-code.ts";
 *
 * descriptionForSandbox({ tags: [{ name: "groups" }], paths: { "/g": { get: { tags: ["groups"] } } } });
 * // { paths: { "/g": { get: {} } } }
 * ```
 */
export function descriptionForSandbox(doc: Record<string, Json>): Record<string, Json> {
  const { tags: _tags, "x-tagGroups": _groups, paths, ...rest } = doc;
  const kept = withoutUndocumentedLists(rest) as Record<string, Json>;
  if (!isRecord(paths)) return kept;
  const items = Object.entries(paths).map(([path, item]) => {
    if (!isRecord(item)) return [path, item];
    const entries = Object.entries(item).map(([key, inner]) => {
      if (!isHttpMethod(key) || !isRecord(inner)) return [key, withoutUndocumentedLists(inner)];
      const own = inner["x-undocumented"];
      const operation = operationForSandbox(withoutUndocumentedLists(inner) as Record<string, Json>);
      return [key, own === undefined ? operation : { ...operation, "x-undocumented": own }];
    });
    return [path, Object.fromEntries(entries)];
  });
  return { ...kept, paths: Object.fromEntries(items) };
}
