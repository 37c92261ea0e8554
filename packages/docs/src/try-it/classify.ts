/**
 * What an answer is, for the operation it answers: the panel's one-line verdict. Pure, shared by
 * the panel and the tests.
 */
import type { TryItAnswer, TryItOperation } from "./protocol.ts";

/**
 * The verdict's kind. From the sandbox, a success is `schema-valid`, or `documented-success` where
 * the interface shows no shape to check it against; the browser test accepts these and the next two
 * for every operation.
 */
export type VerdictKind =
  | "schema-valid"
  | "documented-success"
  | "documented-error"
  | "not-simulated"
  | "mismatch"
  | "unchecked";

/** The panel's verdict on one answer. */
export interface Verdict {
  kind: VerdictKind;
  text: string;
}

function errorId(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { id?: unknown; ID?: unknown; error?: unknown };
    const id = parsed.id ?? parsed.ID ?? parsed.error;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `status` falls under one of the documented keys (`404`, `4XX`, `default`). */
function documentedStatus(operation: TryItOperation, status: number): string | undefined {
  const text = String(status);
  return (
    operation.statuses.find((key) => key === text) ??
    operation.statuses.find((key) => key.toUpperCase() === `${text[0]}XX`) ??
    (status >= 400 ? operation.statuses.find((key) => key === "default") : undefined)
  );
}

/**
 * Classifies an answer. From the sandbox, every answer has been checked against the description
 * (the worker runs it with response validation), so a success is schema-valid and an error body is
 * a documented error; from your own server only the status is compared with the documented ones.
 */
export function classify(
  operation: TryItOperation,
  answer: TryItAnswer,
  source: "sandbox" | "server",
): Verdict {
  const id = answer.status >= 400 ? errorId(answer.body) : undefined;
  if (source === "sandbox" && answer.status === 501 && id === "not_simulated") {
    return {
      kind: "not-simulated",
      text: "Not simulated: the sandbox does not know how the service answers this.",
    };
  }
  if (answer.violation !== undefined) {
    return { kind: "mismatch", text: `Does not match the description: ${answer.violation}` };
  }
  const documented = documentedStatus(operation, answer.status);
  if (source === "server") {
    return {
      kind: "unchecked",
      text: documented
        ? `Status ${answer.status} is documented (${documented}); answers of your own server are not checked against the schema.`
        : `Status ${answer.status} is not among the documented answers (${operation.statuses.join(", ")}).`,
    };
  }
  if (documented === undefined) {
    return { kind: "mismatch", text: `Status ${answer.status} is not among the documented answers.` };
  }
  if (answer.status < 400) {
    return operation.successShape === "schema"
      ? { kind: "schema-valid", text: `Matches the operation's answer schema (${documented}).` }
      : {
          kind: "documented-success",
          text: `A documented success (${documented}); the interface does not show its shape, so there is no schema to check it against.`,
        };
  }
  if (id !== undefined && operation.errorIds.includes(id)) {
    return { kind: "documented-error", text: `Documented error \`${id}\`, listed for this operation.` };
  }
  return {
    kind: "documented-error",
    text: `Error \`${id ?? "without an identifier"}\` in the documented error shape (${documented}); the interface does not list this identifier for the operation.`,
  };
}
