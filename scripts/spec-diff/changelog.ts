/**
 * The changelog of a spec diff in Markdown: per API version, per operation, breaking first, then
 * non-breaking, then documentation only; each change with its JSON pointer, old and new value and
 * why it is classified so (and which rule said it).
 */
import type { Finding, Severity } from "./classify.ts";

/**
 * The classified changes of one API version.
 *
 * @example
 * ```ts
 * import type { VersionChanges } from "./changelog.ts";
 *
 * const unchanged: VersionChanges = { id: "2.1", bundle: "spec/dist/openapi-v2.1.json", findings: [] };
 * ```
 */
export interface VersionChanges {
  readonly id: string;
  readonly bundle: string;
  readonly findings: readonly Finding[];
}

/**
 * The heading each severity gets in the changelog and on the docs' changes page.
 *
 * @example
 * ```ts
 * import { SEVERITY_TITLES } from "./changelog.ts";
 *
 * console.log(`## ${SEVERITY_TITLES.breaking}`); // ## Breaking
 * ```
 */
export const SEVERITY_TITLES: Record<Severity, string> = {
  breaking: "Breaking",
  "non-breaking": "Non-breaking",
  documentation: "Documentation only",
};
const ORDER: readonly Severity[] = ["breaking", "non-breaking", "documentation"];

/**
 * A value as the changelog shows it: JSON, cut at 100 characters; `—` when there is none.
 *
 * @example
 * ```ts
 * import { showValue } from "./changelog.ts";
 *
 * console.log(showValue(["a", "b"])); // ["a","b"]
 * ```
 */
export function showValue(value: unknown): string {
  if (value === undefined) return "—";
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/**
 * The findings of one version grouped by operation (in document order), each group's findings by
 * severity.
 *
 * @example
 * ```ts
 * import { groupFindings } from "./changelog.ts";
 *
 * console.log(groupFindings([]).length); // 0
 * ```
 */
export function groupFindings(
  findings: readonly Finding[],
): { group: string; bySeverity: [Severity, Finding[]][] }[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) groups.set(finding.group, [...(groups.get(finding.group) ?? []), finding]);
  return [...groups].map(([group, list]) => ({
    group,
    bySeverity: ORDER.map((severity): [Severity, Finding[]] => [
      severity,
      list.filter((f) => f.severity === severity),
    ]).filter(([, list]) => list.length > 0),
  }));
}

const code = (text: string) => `\`${text.replaceAll("`", "'")}\``;

/**
 * The Markdown changelog of the versions' changes.
 *
 * @example
 * ```ts
 * import { versionsMarkdown } from "./changelog.ts";
 *
 * console.log(versionsMarkdown([{ id: "2.1", bundle: "openapi-v2.1.json", findings: [] }]));
 * // ## API 2.1 (`openapi-v2.1.json`)\n\nNo changes.\n
 * ```
 */
export function versionsMarkdown(versions: readonly VersionChanges[]): string {
  const lines: string[] = [];
  for (const version of versions) {
    lines.push(`## API ${version.id} (\`${version.bundle}\`)`, "");
    if (version.findings.length === 0) {
      lines.push("No changes.", "");
      continue;
    }
    const counts = ORDER.map(
      (severity) =>
        `${version.findings.filter((f) => f.severity === severity).length} ${SEVERITY_TITLES[severity].toLowerCase()}`,
    );
    lines.push(`${counts.join(", ")}.`, "");
    for (const { group, bySeverity } of groupFindings(version.findings)) {
      lines.push(`### ${code(group)}`, "");
      for (const [severity, findings] of bySeverity) {
        lines.push(`#### ${SEVERITY_TITLES[severity]}`, "");
        for (const finding of findings) {
          lines.push(
            `- ${code(finding.pointer)}`,
            `  - old ${code(showValue(finding.before))}, new ${code(showValue(finding.after))}`,
            `  - ${severity === "breaking" ? "why it breaks" : "what"}: ${finding.reason} (${finding.rule})`,
          );
        }
        lines.push("");
      }
    }
  }
  return `${lines.join("\n").trimEnd()}\n`;
}
