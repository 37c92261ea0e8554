/**
 * Whether a release's consumer code calls at least one operation of every tag of every API version,
 * so that compiling it against new types can catch a breaking change anywhere in the description
 * (a renamed path of the organization operations went unseen while no consumer code called one).
 */
import { isHttpMethod } from "@drill-practice/tooling/operations";
import { readJson, versionBundles } from "./run.ts";

/** A client call as consumer code writes it: `.GET("/api/2.1/group/{group}"`. */
const CALL = /\.(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE)\(\s*(["'`])(\/[^"'`]*)\2/g;

/** A tag of a version none of whose operations the consumer code calls. */
export interface UncoveredTag {
  readonly version: string;
  readonly tag: string;
  /** Its operations, as `METHOD /path`, for the message. */
  readonly operations: readonly string[];
}

/** Every `METHOD /path` the code calls through a client. */
export function calledOperations(code: readonly string[]): Set<string> {
  const called = new Set<string>();
  for (const text of code) for (const match of text.matchAll(CALL)) called.add(`${match[1]} ${match[3]}`);
  return called;
}

/**
 * The tags, per version bundle in `dir`, that the consumer code leaves uncalled; empty when every
 * tag of every version has a call.
 *
 * @example
 * ```ts
 * import { uncoveredTags } from "./tag-coverage.ts";
 *
 * for (const gap of uncoveredTags("spec/baseline", [])) console.log(gap.version, gap.tag);
 * ```
 */
export function uncoveredTags(dir: string, code: readonly string[]): UncoveredTag[] {
  const called = calledOperations(code);
  const gaps: UncoveredTag[] = [];
  for (const version of versionBundles(dir)) {
    const doc = readJson<{ paths?: Record<string, Record<string, { tags?: string[] }>> }>(
      `${dir}/${version.bundle}`,
    );
    const byTag = new Map<string, string[]>();
    for (const [path, item] of Object.entries(doc.paths ?? {}))
      for (const [method, operation] of Object.entries(item))
        if (isHttpMethod(method))
          for (const tag of operation.tags ?? [])
            byTag.set(tag, [...(byTag.get(tag) ?? []), `${method.toUpperCase()} ${path}`]);
    for (const [tag, operations] of byTag)
      if (!operations.some((operation) => called.has(operation)))
        gaps.push({ version: version.id, tag, operations });
  }
  return gaps;
}
