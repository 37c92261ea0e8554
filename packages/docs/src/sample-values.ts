import { DEFAULT_IDS } from "@drill-practice/sandbox";
import { listOperations, type OpenApiDocument, operationParameters } from "./openapi-document.ts";

/**
 * A value the reader has to bring from an earlier call; samples read it from an environment
 * variable and say where it comes from.
 */
export interface ReaderValue {
  /** Environment variable the samples read, e.g. `REFERENCE`. */
  env: string;
  /** Where to get it, in a few words. */
  hint: string;
}

/** Example values for parameters, by parameter name. */
export interface SampleValues {
  /** Literal values, each of which exists in the sandbox's built-in dataset. */
  literal: Readonly<Record<string, string>>;
  /** Values only an earlier answer can give. */
  fromReader: Readonly<Record<string, ReaderValue>>;
}

/** The well-known IDs the sandbox exports for docs and demos (`DEFAULT_IDS`). */
export type SandboxIds = typeof DEFAULT_IDS;

/** The first string example the spec gives for a parameter of this name, if any. */
function specExample(documents: readonly OpenApiDocument[], name: string): string | undefined {
  for (const document of documents) {
    for (const { path, operation } of listOperations(document)) {
      for (const parameter of operationParameters(document, path, operation)) {
        if (parameter.name === name && typeof parameter.example === "string") return parameter.example;
      }
    }
  }
  return undefined;
}

/**
 * The example values of the code samples: the spec's own example of a drill ID (which the
 * sandbox's dataset holds) and the IDs the sandbox exports, so a sample pasted into a shell next
 * to `drill-sandbox` addresses something that exists there.
 */
export function sampleValues(
  documents: readonly OpenApiDocument[],
  ids: SandboxIds = DEFAULT_IDS,
): SampleValues {
  const drill = specExample(documents, "drill_id") ?? specExample(documents, "drill");
  if (drill === undefined)
    throw new Error("the spec gives no example drill ID (parameter drill_id or drill)");
  const user = ids.users.ana;
  return {
    literal: {
      drill,
      drill_id: drill,
      drillable: drill,
      playable: drill,
      catalog: ids.catalogs.business,
      organization: ids.organization,
      organization_id: ids.organization,
      group: ids.group,
      group_id: ids.group,
      course: ids.course,
      course_id: ids.course,
      objective: ids.objective,
      objective_id: ids.objective,
      user,
      user_id: user,
      user_reference: user,
      user_id_or_ticket: user,
      email: ids.email,
    },
    fromReader: {
      reference: { env: "REFERENCE", hint: "the `reference` of a question you were given" },
    },
  };
}

/**
 * A readable stand-in for a parameter nothing else names a value for: `test_id` becomes
 * `test-1`.
 */
export function placeholderValue(name: string): string {
  return `${name.replace(/_id$/, "").replace(/_/g, "-")}-1`;
}
