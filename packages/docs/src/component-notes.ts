import { isRecord } from "@drill-practice/tooling/json-pointer";
import type { OpenApiDocument } from "./openapi-document.ts";
import {
  observedNoteHtml,
  readUndocumented,
  schemaObservedFacts,
  undocumentedNoteHtml,
} from "./operation-notes.ts";

/** The components whose descriptions the references show: a schema where a body uses it, a scheme under Authentication. */
const describedComponents = ["schemas", "securitySchemes"] as const;

/**
 * Puts the `x-undocumented` list of each schema and security scheme in front of its description
 * as the same one-sentence note the operations carry, so that the reference says what the
 * interface leaves open where the reader looks at that object (a body's fields, the
 * Authentication section); then, likewise, what was observed of it (`x-observed` on it or its
 * properties), which the operations' notes leave to the object. Returns a copy, the components
 * given a "not shown" note (`schemas/Drill_v2_0`) and those given an observed note.
 */
export function addComponentNotes(input: OpenApiDocument): {
  document: OpenApiDocument;
  noted: string[];
  observed: string[];
} {
  const document = structuredClone(input);
  const noted: string[] = [];
  const observed: string[] = [];
  const components = document.components as Record<string, Record<string, unknown> | undefined> | undefined;
  for (const kind of describedComponents) {
    for (const [name, component] of Object.entries(components?.[kind] ?? {})) {
      if (!isRecord(component)) continue;
      const where = `components/${kind}/${name}`;
      const notes: string[] = [];
      if ("x-undocumented" in component) {
        notes.push(undocumentedNoteHtml(readUndocumented(component["x-undocumented"], where)));
        noted.push(`${kind}/${name}`);
      }
      const facts = schemaObservedFacts(component, where);
      if (facts.length > 0) {
        notes.push(observedNoteHtml(facts));
        observed.push(`${kind}/${name}`);
      }
      if (notes.length === 0) continue;
      const prose = typeof component.description === "string" ? component.description.trim() : "";
      component.description = [notes.join("\n"), prose].filter((part) => part !== "").join("\n\n");
    }
  }
  return { document, noted, observed };
}
