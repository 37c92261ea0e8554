/**
 * The "Changes" page: per release, the changes to the API description the spec diff found
 * (`pnpm spec:diff`), grouped by API version and operation, breaking first. The same findings
 * as the Markdown changelog, rendered for readers of the references, except that documentation-only
 * changes are counted, not listed: thousands of reworded notes would bury the changes code feels.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { unescapeToken } from "@drill-practice/tooling/json-pointer";
import { isHttpMethod } from "@drill-practice/tooling/operations";
import {
  groupFindings,
  SEVERITY_TITLES,
  showValue,
  type VersionChanges,
} from "../../../scripts/spec-diff/changelog.ts";
import { classifyChanges, type Finding, type Severity } from "../../../scripts/spec-diff/classify.ts";
import { apiVersions } from "./site-header.ts";

/** One section of the page: a release, or the changes not released yet. */
export interface ChangesSection {
  /** `Unreleased` or the client version of the release, e.g. `0.2.0`. */
  title: string;
  /** What it is compared with, e.g. `@drill-practice/client 0.1.0`. */
  since: string;
  versions: readonly VersionChanges[];
  /** API versions the release did not have, with their number of operations now. */
  added?: readonly { id: string; operations: number }[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

function operationCount(doc: Record<string, unknown>): number {
  const paths = Object.values((doc.paths ?? {}) as Record<string, Record<string, unknown>>);
  return paths.reduce((sum, item) => sum + Object.keys(item).filter(isHttpMethod).length, 0);
}

/** What a documentation change touched, as the last named step of its pointer: `description`, `examples`. */
function changedPart(pointer: string): string {
  const names = pointer.split("/").filter((step) => step !== "" && !/^\d+$/.test(step));
  return unescapeToken(names.at(-1) ?? pointer);
}

/** Breaking and non-breaking changes one by one; documentation-only ones as a count and what they touched. */
function renderSeverity(severity: Severity, findings: readonly Finding[]): string[] {
  const title = `<strong>${SEVERITY_TITLES[severity]}</strong>`;
  if (severity === "documentation") {
    const parts = [...new Set(findings.map((finding) => changedPart(finding.pointer)))].sort();
    const count = findings.length === 1 ? "1 change" : `${findings.length} changes`;
    return [
      `<p class="changes-${severity}">${title}: ${count}, to ${parts.map((part) => `<code>${escapeHtml(part)}</code>`).join(", ")}.</p>`,
    ];
  }
  return [
    `<p class="changes-${severity}">${title}</p>`,
    "<ul>",
    ...findings.map(
      (finding) =>
        `<li class="change"><code>${escapeHtml(finding.pointer)}</code>: ${inline(finding.reason)}. ` +
        `Old <code>${escapeHtml(showValue(finding.before))}</code>, new <code>${escapeHtml(showValue(finding.after))}</code>.</li>`,
    ),
    "</ul>",
  ];
}

/**
 * The sections of the page: what changed since the released baseline (`<baselineDir>/*.json`
 * against `specDir`), then each release archived by the release step (`<baselineDir>/changes/`),
 * newest first.
 */
export function changesSections(baselineDir: string, specDir: string): ChangesSection[] {
  const read = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const since = (packages: unknown) =>
    Object.entries((packages ?? {}) as Record<string, string>)
      .map(([name, version]) => `${name} ${version}`)
      .join(", ");
  // A version new since the release has no baseline bundle: the spec diff reports its additions.
  const bundles = apiVersions
    .map(({ id, bundle }) => ({ id, bundle }))
    .filter(({ bundle }) => existsSync(join(baselineDir, bundle)));
  const added = apiVersions
    .filter(({ bundle }) => !existsSync(join(baselineDir, bundle)) && existsSync(join(specDir, bundle)))
    .map(({ id, bundle }) => ({ id, operations: operationCount(read(join(specDir, bundle))) }));
  const sections: ChangesSection[] = [];
  if (bundles.length > 0) {
    sections.push({
      title: "Unreleased",
      since: existsSync(join(baselineDir, "release.json"))
        ? since(read(join(baselineDir, "release.json")).packages)
        : "the baseline",
      versions: bundles.map(({ id, bundle }) => ({
        id,
        bundle,
        findings: classifyChanges(read(join(baselineDir, bundle)), read(join(specDir, bundle))),
      })),
      added,
    });
  }
  const archive = join(baselineDir, "changes");
  const releases = existsSync(archive) ? readdirSync(archive).filter((file) => file.endsWith(".json")) : [];
  for (const file of releases.sort((a, b) => b.localeCompare(a, "en", { numeric: true }))) {
    const release = read(join(archive, file)) as {
      version: string;
      since: unknown;
      versions: VersionChanges[];
    };
    sections.push({ title: release.version, since: since(release.since), versions: release.versions });
  }
  return sections;
}

/**
 * The page's body: one section per release, each API version's changes by operation.
 */
export function renderChanges(sections: readonly ChangesSection[]): string {
  if (sections.length === 0) return "<p>No released description to compare with yet.</p>";
  const out: string[] = [];
  for (const section of sections) {
    const id =
      section.title === "Unreleased" ? "unreleased" : `release-${section.title.replace(/[^\w.-]/g, "-")}`;
    out.push(`<h2 id="${escapeHtml(id)}">${escapeHtml(section.title)}</h2>`);
    out.push(`<p>Compared with ${inline(section.since)}.</p>`);
    for (const version of section.added ?? []) {
      out.push(
        `<h3 id="${escapeHtml(`${id}-v${version.id}`)}">API ${escapeHtml(version.id)}</h3>`,
        `<p>New in this release: ${version.operations} operations. ` +
          `<a href="migrating.html">Migrating to ${escapeHtml(version.id)}</a> pairs them with the operations they replace.</p>`,
      );
    }
    for (const version of section.versions) {
      out.push(`<h3 id="${escapeHtml(`${id}-v${version.id}`)}">API ${escapeHtml(version.id)}</h3>`);
      if (version.findings.length === 0) {
        out.push("<p>No changes.</p>");
        continue;
      }
      for (const { group, bySeverity } of groupFindings(version.findings)) {
        out.push(`<h4><code>${escapeHtml(group)}</code></h4>`);
        for (const [severity, findings] of bySeverity) out.push(...renderSeverity(severity, findings));
      }
    }
  }
  return out.join("\n");
}
