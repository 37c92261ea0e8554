/**
 * Generated blocks inside hand-written Markdown (a README's tables): a block sits between two
 * comment markers that name it and the command that regenerates it, so a test can compare the
 * committed text with a fresh rendering and a script can rewrite it in place.
 *
 * @example
 * ```ts
 * import { markdownTable, replaceBlock } from "@drill-practice/tooling/markdown-blocks";
 *
 * const readme = "<!-- generated:ops:start (pnpm run tables) -->\n<!-- generated:ops:end -->";
 * replaceBlock(readme, "ops", "pnpm run tables", markdownTable(["A"], [["1"]]));
 * ```
 */

/**
 * A Markdown table with padded cells (the layout Biome's Markdown formatter keeps).
 *
 * @example
 * ```ts
 * import { markdownTable } from "@drill-practice/tooling/markdown-blocks";
 *
 * markdownTable(["Name", "Count"], [["a", "1"]]); // "| Name | Count |\n| ---- | ----- |\n| a    | 1     |"
 * ```
 */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(" | ")} |`;
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

const startMarker = (name: string, command: string) => `<!-- generated:${name}:start (${command}) -->`;
const endMarker = (name: string) => `<!-- generated:${name}:end -->`;

function bounds(text: string, name: string, command: string): { start: number; end: number } {
  const marker = startMarker(name, command);
  const start = text.indexOf(marker);
  const end = text.indexOf(endMarker(name));
  if (start < 0 || end < start) throw new Error(`markdown: markers of the ${name} block not found`);
  return { start: start + marker.length, end };
}

/**
 * The text between a block's markers.
 *
 * @example
 * ```ts
 * import { readBlock } from "@drill-practice/tooling/markdown-blocks";
 *
 * readBlock("<!-- generated:x:start (cmd) -->\nhi\n<!-- generated:x:end -->", "x", "cmd"); // "\nhi\n"
 * ```
 */
export function readBlock(text: string, name: string, command: string): string {
  const { start, end } = bounds(text, name, command);
  return text.slice(start, end);
}

/**
 * The text with a block's content replaced.
 *
 * @example
 * ```ts
 * import { replaceBlock } from "@drill-practice/tooling/markdown-blocks";
 *
 * replaceBlock("<!-- generated:x:start (cmd) -->\n<!-- generated:x:end -->", "x", "cmd", "new");
 * ```
 */
export function replaceBlock(text: string, name: string, command: string, content: string): string {
  const { start, end } = bounds(text, name, command);
  return `${text.slice(0, start)}\n${content}\n${text.slice(end)}`;
}
