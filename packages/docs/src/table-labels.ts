/**
 * On a phone the guides' tables are stacked: each row becomes a card and each cell a line of its
 * own. A stacked cell no longer sits under its column's header, so it carries the header's text
 * in `data-label`, which the style sheet shows in front of it.
 */

/** The text of a header cell: markup removed, entities and white space as written. */
function headerText(cell: string): string {
  return cell
    .replace(/<[^>]+>/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Gives every `<td>` of every `<table>` with a `<thead>` the text of its column's header as
 * `data-label`. Tables without a header row, and cells beyond the header's columns, are left as
 * they are. The text is already HTML (taken from the page), so it is not escaped again, only its
 * double quotes.
 */
export function labelTableCells(html: string): string {
  return html.replace(/<table\b[^>]*>[\s\S]*?<\/table>/g, (table) => {
    const head = /<thead\b[^>]*>([\s\S]*?)<\/thead>/.exec(table)?.[1];
    if (head === undefined) return table;
    const labels = [...head.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((cell) =>
      headerText(cell[1] ?? "").replaceAll('"', "&quot;"),
    );
    return table.replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/g, (row) => {
      let column = 0;
      return row.replace(/<td(?=[\s>])([^>]*)>/g, (cell, attributes: string) => {
        const label = labels[column++];
        if (label === undefined || /\bdata-label=/.test(attributes)) return cell;
        return `<td${attributes} data-label="${label}">`;
      });
    });
  });
}
