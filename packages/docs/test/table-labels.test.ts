import { describe, expect, it } from "vitest";
import { labelTableCells } from "../src/table-labels.ts";

describe("labelTableCells", () => {
  it("labels each cell with its column's header text, markup removed", () => {
    const html =
      '<table><thead><tr><th><code>code</code></th><th>Thrown "by"</th></tr></thead>' +
      '<tbody><tr><td><code>ERR_API</code></td><td class="x">client</td></tr></tbody></table>';
    expect(labelTableCells(html)).toBe(
      '<table><thead><tr><th><code>code</code></th><th>Thrown "by"</th></tr></thead>' +
        '<tbody><tr><td data-label="code"><code>ERR_API</code></td><td class="x" data-label="Thrown &quot;by&quot;">client</td></tr></tbody></table>',
    );
  });

  it("leaves tables without a header row, extra cells and labelled cells alone", () => {
    const bare = "<table><tr><td>a</td></tr></table>";
    expect(labelTableCells(bare)).toBe(bare);
    const extra =
      '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td><td data-label="own">2</td><td>3</td></tr></tbody></table>';
    expect(labelTableCells(extra)).toBe(
      '<table><thead><tr><th>A</th></tr></thead><tbody><tr><td data-label="A">1</td><td data-label="own">2</td><td>3</td></tr></tbody></table>',
    );
  });

  it("takes each table's own headers", () => {
    const two =
      "<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>" +
      "<p>between</p><table><thead><tr><th>B</th></tr></thead><tbody><tr><td>2</td></tr></tbody></table>";
    expect(labelTableCells(two)).toContain('<td data-label="A">1</td>');
    expect(labelTableCells(two)).toContain('<td data-label="B">2</td>');
  });
});
