/**
 * The "Changes" page: per release, the changes to the API description the spec diff found
 * (`pnpm spec:diff`), grouped by API version and operation, breaking first. The same findings
 * as the Markdown changelog, rendered for readers of the references.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  groupFindings,
  SEVERITY_TITLES,
  showValue,
  type VersionChanges,
} from "../../../scripts/spec-diff/changelog.ts";
import { classifyChanges } from "../../../scripts/spec-diff/classify.ts";
import { apiVersions } from "./site-header.ts";

/** One section of the page: a release, or the changes not released yet. */
export interface ChangesSection {
  /** `Unreleased` or the client version of the release, e.g. `0.2.0`. */
  title: string;
  /** What it is compared with, e.g. `@drill-practice/client 0.1.0`. */
  since: string;
  versions: readonly VersionChanges[];
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
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
    for (const version of section.versions) {
      out.push(`<h3 id="${escapeHtml(`${id}-v${version.id}`)}">API ${escapeHtml(version.id)}</h3>`);
      if (version.findings.length === 0) {
        out.push("<p>No changes.</p>");
        continue;
      }
      for (const { group, bySeverity } of groupFindings(version.findings)) {
        out.push(`<h4><code>${escapeHtml(group)}</code></h4>`);
        for (const [severity, findings] of bySeverity) {
          out.push(
            `<p class="changes-${severity}"><strong>${SEVERITY_TITLES[severity]}</strong></p>`,
            "<ul>",
          );
          for (const finding of findings) {
            out.push(
              `<li class="change"><code>${escapeHtml(finding.pointer)}</code>: ${inline(finding.reason)}. ` +
                `Old <code>${escapeHtml(showValue(finding.before))}</code>, new <code>${escapeHtml(showValue(finding.after))}</code>.</li>`,
            );
          }
          out.push("</ul>");
        }
      }
    }
  }
  return out.join("\n");
}
