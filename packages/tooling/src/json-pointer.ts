/**
 * JSON pointers (RFC 6901) for the repository's tooling, docs build and spec scripts: one writer and
 * one reader of pointer tokens. (The published sandbox keeps its own in `src/http/openapi.ts`.)
 */

/** The pointer token of a key: `~` and `/` escaped. */
export function escapeToken(key: string | number): string {
  return String(key).replaceAll("~", "~0").replaceAll("/", "~1");
}

/** The key a pointer token names. */
export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * What a pointer (`/paths/…`, or a local `$ref` such as `#/components/schemas/a~1b`) points at in a
 * document, or `undefined` when nothing is there. Array items are reached by index.
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
