/**
 * The root README's "Supported runtimes" table, made from the matrix's own cases and pinned
 * versions, so that the README states exactly what the matrix runs. A test compares the two;
 * `pnpm --filter @drill-practice/runtime-matrix readme:table` rewrites the README's copy.
 */
import { pinnedVersion, RUNTIME_CASES, type RuntimeCase } from "./runtimes.js";

/** The comments around the table in the root README. */
export const TABLE_START =
  "<!-- runtime-matrix:table:start (pnpm --filter @drill-practice/runtime-matrix readme:table) -->";
export const TABLE_END = "<!-- runtime-matrix:table:end -->";

function versionTested(runtime: RuntimeCase): string {
  if (runtime.id === "node20") return "the host's 20.x (CI: 20.19)";
  if (runtime.id === "chromium") return "Debian's current package";
  if (runtime.npmPackage === undefined) throw new Error(`${runtime.id}: no pinned version`);
  const version = pinnedVersion(runtime.npmPackage);
  return runtime.kind === "workerd"
    ? `workerd ${version} (Miniflare ${pinnedVersion("miniflare")})`
    : version;
}

/** The table itself (header, delimiter, one row per case), so the README cannot claim a runtime the matrix does not run. */
export function renderRuntimeTable(): string {
  const header = [
    "runtime",
    "version tested",
    "entry points used",
    "in-process sandbox (`createSandbox`)",
    "notes",
  ];
  const rows = RUNTIME_CASES.map((runtime) => [
    runtime.name,
    versionTested(runtime),
    runtime.entryPoints,
    runtime.inProcess,
    runtime.notes,
  ]);
  // Columns padded to their widest cell, as Biome formats Markdown tables.
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

/**
 * The README text with the table between its markers replaced by the current one.
 */
export function withRuntimeTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`the README has no "${TABLE_START}" … "${TABLE_END}" section`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${renderRuntimeTable()}\n${readme.slice(end)}`;
}
