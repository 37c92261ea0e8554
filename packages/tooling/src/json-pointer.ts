/**
 * JSON pointers (RFC 6901) for the repository's tooling, docs build and spec scripts: one writer and
 * one reader of pointer tokens. (The published sandbox keeps its own in `src/http/openapi.ts`.)
 *
 * @example
 * ```ts
 * import { escapeToken, pointerTarget } from "@drill-practice/tooling/json-pointer";
 *
 * const document = { paths: { "/api/2.1/version": { get: { operationId: "getVersion_v2_1" } } } };
 * pointerTarget(document, `#/paths/${escapeToken("/api/2.1/version")}/get`); // { operationId: "getVersion_v2_1" }
 * ```
 */

/**
 * The pointer token of a key: `~` and `/` escaped.
 *
 * @example
 * ```ts
 * import { escapeToken } from "@drill-practice/tooling/json-pointer";
 *
 * escapeToken("/api/2.1/version"); // "~1api~12.1~1version"
 * ```
 */
export function escapeToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/**
 * The key a pointer token names.
 *
 * @example
 * ```ts
 * import { unescapeToken } from "@drill-practice/tooling/json-pointer";
 *
 * unescapeToken("application~1json"); // "application/json"
 * ```
 */
export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

/**
 * Whether a value is a plain JSON object (not an array, not null): a node a pointer can step into
 * by name.
 *
 * @example
 * ```ts
 * import { isRecord } from "@drill-practice/tooling/json-pointer";
 *
 * isRecord({ openapi: "3.1.0" }); // true
 * isRecord(["get"]); // false
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What a pointer (`/paths/…`, or a local `$ref` such as `#/components/schemas/a~1b`) points at in a
 * document, or `undefined` when nothing is there. Array items are reached by index.
 *
 * @example
 * ```ts
 * import { pointerTarget } from "@drill-practice/tooling/json-pointer";
 *
 * const document = { components: { schemas: { Group: { type: "object" } } } };
 * pointerTarget(document, "#/components/schemas/Group"); // { type: "object" }
 * pointerTarget(document, "#/components/schemas/Nothing"); // undefined
 * ```
 */
export function pointerTarget(document: unknown, pointer: string): unknown {
  const tokens = pointer.replace(/^#/, "").split("/").slice(1);
  let target: unknown = document;
  for (const token of tokens) {
    const key = unescapeToken(token);
    target = Array.isArray(target) ? target[Number(key)] : isRecord(target) ? target[key] : undefined;
  }
  return target;
}
