/**
 * Matches request paths against OpenAPI path templates. Templates are split into segments and stored
 * in a tree; at every level a literal segment wins over a segment with parameters, and a segment mixing
 * text and parameters (`account-upgrade-{provider}`) wins over a bare `{param}`, so `/store/recent`
 * is never taken for `/store/{id}`. Matching backtracks, so the most specific template always wins.
 */

/** Result of matching a path: the matched template's value and its decoded path parameters. */
export type RouteMatch<T> =
  | {
      readonly kind: "found";
      readonly value: T;
      readonly template: string;
      readonly params: Record<string, string>;
    }
  | { readonly kind: "not_found" }
  | { readonly kind: "bad_encoding"; readonly segment: string };

interface PatternChild<T> {
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly node: Node<T>;
  /** Literal characters in the segment: more means more specific. */
  readonly literalLength: number;
}

interface Node<T> {
  readonly literal: Map<string, Node<T>>;
  readonly patterns: PatternChild<T>[];
  readonly params: Map<string, Node<T>>;
  entry?: { value: T; template: string };
}

function newNode<T>(): Node<T> {
  return { literal: new Map(), patterns: [], params: new Map() };
}

const PARAM = /\{([^{}/]+)\}/g;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A router built once from path templates.
 *
 * @example
 * ```ts
 * import { PathRouter } from "./router.js";
 *
 * const router = new PathRouter<string>();
 * router.add("/api/2.1/store/{drill}", "related");
 * router.add("/api/2.1/store/recent", "recent");
 * router.match("/api/2.1/store/recent"); // { kind: "found", value: "recent", … }
 * ```
 */
export class PathRouter<T> {
  readonly #root = newNode<T>();

  /** Adds a template. Adding the same template twice replaces the value. */
  add(template: string, value: T): void {
    let node = this.#root;
    for (const segment of template.split("/").slice(1)) {
      const names = [...segment.matchAll(PARAM)].map((m) => m[1] as string);
      if (names.length === 0) {
        node = getOrCreate(node.literal, segment);
      } else if (segment === `{${names[0]}}`) {
        node = getOrCreate(node.params, names[0] as string);
      } else {
        const source = segment
          .split(PARAM)
          .map((part, i) => (i % 2 === 1 ? "(.+?)" : escapeRegex(part)))
          .join("");
        const regex = new RegExp(`^${source}$`);
        let child = node.patterns.find((p) => p.regex.source === regex.source);
        if (!child) {
          child = { regex, names, node: newNode<T>(), literalLength: segment.replace(PARAM, "").length };
          node.patterns.push(child);
          node.patterns.sort((a, b) => b.literalLength - a.literalLength);
        }
        node = child.node;
      }
    }
    node.entry = { value, template };
  }

  /** Matches a raw (still percent-encoded) path, without query string. */
  match(rawPath: string): RouteMatch<T> {
    const segments = rawPath.split("/").slice(1);
    const found = this.#walk(this.#root, segments, 0, []);
    if (!found) return { kind: "not_found" };
    const params: Record<string, string> = {};
    for (const [name, raw] of found.captures) {
      try {
        params[name] = decodeURIComponent(raw);
      } catch {
        return { kind: "bad_encoding", segment: raw };
      }
    }
    return { kind: "found", value: found.entry.value, template: found.entry.template, params };
  }

  #walk(
    node: Node<T>,
    segments: readonly string[],
    index: number,
    captures: [string, string][],
  ): Walked<T> | undefined {
    if (index === segments.length)
      return node.entry ? { entry: node.entry, captures, literals: 0 } : undefined;
    const segment = segments[index] as string;
    const literal = node.literal.get(segment);
    if (literal) {
      const found = this.#walk(literal, segments, index + 1, captures);
      if (found) return { ...found, literals: found.literals + 1 };
    }
    if (segment === "") return undefined;
    for (const pattern of node.patterns) {
      const m = pattern.regex.exec(segment);
      if (!m) continue;
      const more = pattern.names.map((name, i): [string, string] => [name, m[i + 1] as string]);
      const found = this.#walk(pattern.node, segments, index + 1, [...captures, ...more]);
      if (found) return found;
    }
    // Templates naming the parameter here differently (`user/{user}/contract`, `user/{a}/{b}`) sit in
    // different children: the match with more literal segments after this one wins.
    let best: Walked<T> | undefined;
    for (const [name, child] of node.params) {
      const found = this.#walk(child, segments, index + 1, [...captures, [name, segment]]);
      if (found && (best === undefined || found.literals > best.literals)) best = found;
    }
    return best;
  }
}

/** A match found below a node, with how many of its segments matched literally. */
interface Walked<T> {
  readonly entry: { value: T; template: string };
  readonly captures: [string, string][];
  readonly literals: number;
}

function getOrCreate<T>(map: Map<string, Node<T>>, key: string): Node<T> {
  let node = map.get(key);
  if (!node) {
    node = newNode<T>();
    map.set(key, node);
  }
  return node;
}
