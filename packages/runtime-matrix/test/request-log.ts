/**
 * Reads the sandbox's request log (its `onRequest` lines: method, path, status, operation ID, …) as
 * `"<operationId> <status>"` entries, the order of calls the matrix's cases compare.
 */
export function operationsOf(lines: readonly string[]): string[] {
  return lines.map((line) => {
    const [, , status, operationId] = line.split(" ");
    return `${operationId} ${status}`;
  });
}
