/**
 * Marks what a retired API version offers as `@deprecated` where editors look: openapi-typescript
 * puts `@deprecated` on each deprecated operation (`paths[path][method]`), but an editor shows the
 * path a call names (`client.GET("/api/2.1/…")`) and the `operations` entry, which it leaves bare.
 * This adds, to each path of a retired version and to each of its operations, a `@deprecated` tag
 * naming the date the service switched the version off and the version it answers today.
 */
import { API_VERSIONS, apiVersionOf, CURRENT_API_VERSION } from "@drill-practice/tooling/api-versions";
import ts from "typescript";

/** The JSDoc text of a retired version's path or operation. */
export function retiredNote(id: string, date: string): string {
  return `API ${id} was switched off on ${date}; the service answers API ${CURRENT_API_VERSION.id} (\`${CURRENT_API_VERSION.prefix}…\`).`;
}

function versionOfMember(interfaceName: string, name: string) {
  if (interfaceName === "paths") return apiVersionOf(name);
  // An operationId ends in its version's suffix; the longest suffix decides (`_v2_1_1` before `_v2_1`).
  return [...API_VERSIONS]
    .sort((a, b) => b.operationSuffix.length - a.operationSuffix.length)
    .find((version) => name.endsWith(version.operationSuffix));
}

/**
 * Adds the tags to the `paths` and `operations` interfaces of generated nodes, in place.
 *
 * @example
 * ```ts
 * import openapiTS from "openapi-typescript";
 * import { markRetiredVersions } from "./retired-versions.ts";
 *
 * const nodes = await openapiTS(new URL("../../spec/dist/openapi.json", import.meta.url));
 * markRetiredVersions(nodes);
 * ```
 */
export function markRetiredVersions(nodes: readonly ts.Node[]): void {
  for (const node of nodes) {
    if (!ts.isInterfaceDeclaration(node)) continue;
    const interfaceName = node.name.text;
    if (interfaceName !== "paths" && interfaceName !== "operations") continue;
    for (const member of node.members) {
      if (!ts.isPropertySignature(member)) continue;
      const name = ts.isStringLiteral(member.name) || ts.isIdentifier(member.name) ? member.name.text : "";
      const retired = versionOfMember(interfaceName, name);
      if (retired?.retired === undefined) continue;
      const text = `*\n * @deprecated ${retiredNote(retired.id, retired.retired.date)}\n `;
      ts.addSyntheticLeadingComment(member, ts.SyntaxKind.MultiLineCommentTrivia, text, true);
    }
  }
}
