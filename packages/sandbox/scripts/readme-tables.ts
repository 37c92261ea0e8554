/**
 * Renders the README's generated tables from the code: the simulated operations (`SIMULATED_OPERATIONS`
 * plus method and path from the packaged description) and every error ID with its status. A test checks
 * the README against these, so the documentation cannot drift from what the sandbox does.
 */
import { API_VERSIONS, apiVersionOf } from "@drill-practice/tooling/api-versions";
import {
  readBlock as readMarkdownBlock,
  replaceBlock as replaceMarkdownBlock,
  markdownTable as table,
} from "@drill-practice/tooling/markdown-blocks";
import { DOMAIN_ERROR_STATUS } from "../src/errors.js";
import { SIMULATED_OPERATIONS } from "../src/http/handlers.js";
import type { OpenApiDocument } from "../src/http/openapi.js";
import { listOperations } from "../src/http/openapi.js";
import { UNAUTHENTICATED_IDS } from "../src/http/page-errors.js";
import { HTTP_ERROR_STATUS } from "../src/http/replies.js";
import { NOT_SIMULATED_REASONS } from "../src/resources/not-simulated.js";
import { exampleAnswerRows } from "../src/responses/example-answers.js";

/**
 * Names of the generated blocks.
 */
export type BlockName =
  | "support-counts"
  | "simulated-operations"
  | "example-operations"
  | "not-simulated-2.1.1"
  | "error-ids";

/**
 * A table's rows as trimmed cells, delimiter rows dropped: what must agree, whatever the padding.
 */
export function tableCells(text: string): string[][] {
  return text
    .split("\n")
    .filter((l) => l.startsWith("|") && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
}

const COMMAND = "pnpm run readme:tables";

/**
 * The Markdown table of simulated operations, in the order of `SIMULATED_OPERATIONS`.
 */
export function renderOperationsTable(doc: OpenApiDocument): string {
  const byId = new Map(listOperations(doc).map((op) => [op.operationId, op]));
  const rows = Object.entries(SIMULATED_OPERATIONS).map(([id, what]) => {
    const op = byId.get(id);
    if (!op) throw new Error(`${id} is simulated but not in the description`);
    return [`\`${op.method} ${op.path}\``, `\`${id}\``, what];
  });
  return table(["Operation", "operationId", "What the sandbox does"], rows);
}

/**
 * The Markdown table of operations answered with an example of their typed answer.
 */
export function renderExampleTable(doc: OpenApiDocument): string {
  const byId = new Map(listOperations(doc).map((op) => [op.operationId, op]));
  const rows = Object.entries(exampleAnswerRows(doc)).map(([id, what]) => {
    const op = byId.get(id);
    if (!op) throw new Error(`${id} has an example answer but is not in the description`);
    return [`\`${op.method} ${op.path}\``, `\`${id}\``, what];
  });
  return table(["Operation", "operationId", "What the sandbox does"], rows);
}

/** The 2.1.1 operations that answer 501, each with why (`NOT_SIMULATED_REASONS`). */
export function renderNotSimulatedTable(doc: OpenApiDocument): string {
  const byId = new Map(listOperations(doc).map((op) => [op.operationId, op]));
  const rows = Object.entries(NOT_SIMULATED_REASONS).map(([id, why]) => {
    const op = byId.get(id);
    if (!op) throw new Error(`${id} has a reason for its 501 but is not in the description`);
    return [`\`${op.method} ${op.path}\``, `\`${id}\``, why];
  });
  return table(["Operation", "operationId", "Why it answers 501"], rows);
}

/** Where an identifier of the table comes from, when not from the sandbox. */
const ORIGINS: Readonly<Record<string, string>> = {
  query_missing: "ID from the interface; status chosen by the sandbox",
  unauthenticated: "observed (2.1.1 group page), where a page lists it",
  not_authenticated: "observed (2.0 Error object, e-mail address pages); pages that list neither: sandbox",
};

/**
 * The Markdown table of error IDs of API operations (`ID` field) with their statuses.
 */
export function renderErrorTable(): string {
  const rows = [
    ...Object.entries(HTTP_ERROR_STATUS).map(([id, status]) => [id, status, "HTTP layer"] as const),
    ...UNAUTHENTICATED_IDS.map((id) => [id, 401, "authentication"] as const),
    ["injected_fault", "as configured", "fault injection"] as const,
    ...Object.entries(DOMAIN_ERROR_STATUS).map(([id, status]) => [id, status, "domain"] as const),
  ].map(([id, status, layer]) => {
    const origin = ORIGINS[id] ?? "sandbox";
    return [`\`${id}\``, String(status), layer, origin];
  });
  return table(["`ID`", "Status", "Raised by", "Origin"], rows);
}

/** How many operations of one version the sandbox simulates with state, answers with an example, or answers 501. */
export interface SupportCount {
  readonly version: string;
  readonly simulated: number;
  readonly example: number;
  readonly notSimulated: number;
}

/** The version an operation belongs to, by its path: `2.1.1`, `2.1`, `2.0`, or `token and discovery`. */
function versionOf(path: string): string {
  return apiVersionOf(path)?.id ?? "token and discovery";
}

/** The support counts per version, from the handler table and the example answers (README, `support:counts`). */
export function supportCounts(doc: OpenApiDocument): SupportCount[] {
  const examples = exampleAnswerRows(doc);
  const counts = new Map<string, { simulated: number; example: number; notSimulated: number }>();
  for (const op of listOperations(doc)) {
    const version = versionOf(op.path);
    const count = counts.get(version) ?? { simulated: 0, example: 0, notSimulated: 0 };
    if (op.operationId in SIMULATED_OPERATIONS) count.simulated++;
    else if (op.operationId in examples) count.example++;
    else count.notSimulated++;
    counts.set(version, count);
  }
  return [...API_VERSIONS.map((version) => version.id), "token and discovery"].flatMap((version) => {
    const count = counts.get(version);
    return count ? [{ version, ...count }] : [];
  });
}

/** The counts as the README's table. */
export function renderCountsTable(doc: OpenApiDocument): string {
  const rows = supportCounts(doc).map((c) => [
    c.version,
    String(c.simulated),
    String(c.example),
    String(c.notSimulated),
  ]);
  return table(["Version", "Simulated with state", "Static example", "501 `not_simulated`"], rows);
}

/**
 * The text of one generated block of a README.
 */
export function readBlock(readme: string, name: BlockName): string {
  return readMarkdownBlock(readme, name, COMMAND);
}

/**
 * Replaces one generated block of a README text.
 */
export function replaceBlock(readme: string, name: BlockName, content: string): string {
  return replaceMarkdownBlock(readme, name, COMMAND, content);
}

/**
 * The README with every generated block brought up to date.
 */
export function updateReadme(readme: string, doc: OpenApiDocument): string {
  const counts = replaceBlock(readme, "support-counts", renderCountsTable(doc));
  const operations = replaceBlock(counts, "simulated-operations", renderOperationsTable(doc));
  const examples = replaceBlock(operations, "example-operations", renderExampleTable(doc));
  const unsimulated = replaceBlock(examples, "not-simulated-2.1.1", renderNotSimulatedTable(doc));
  return replaceBlock(unsimulated, "error-ids", renderErrorTable());
}
