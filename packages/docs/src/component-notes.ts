import { isRecord, type OpenApiDocument } from "./openapi-document.ts";
import { readUndocumented, undocumentedNoteHtml } from "./operation-notes.ts";

/** The components whose descriptions the references show: a schema where a body uses it, a scheme under Authentication. */
const describedComponents = ["schemas", "securitySchemes"] as const;

/**
 * Puts the `x-undocumented` list of each schema and security scheme in front of its description
 * as the same one-sentence note the operations carry, so that the reference says what the
 * interface leaves open where the reader looks at that object (a body's fields, the
 * Authentication section). Returns a copy and the components noted (`schemas/Drill_v2_0`).
 *
 * @example
 * ```ts
 * import { readFile } from "node:fs/promises";
 * import { asOpenApiDocument } from "./openapi-document.ts";
 * import { addComponentNotes } from "./component-notes.ts";
 *
 * const path = "spec/dist/openapi-v2.1.json";
 * const bundle = asOpenApiDocument(JSON.parse(await readFile(path, "utf8")), path);
 * const { document, noted } = addComponentNotes(bundle);
 * ```
 */
export function addComponentNotes(input: OpenApiDocument): { document: OpenApiDocument; noted: string[] } {
  const document = structuredClone(input);
  const noted: string[] = [];
  const components = document.components as Record<string, Record<string, unknown> | undefined> | undefined;
  for (const kind of describedComponents) {
    for (const [name, component] of Object.entries(components?.[kind] ?? {})) {
      if (!isRecord(component) || !("x-undocumented" in component)) continue;
      const where = `components/${kind}/${name}`;
      const note = undocumentedNoteHtml(readUndocumented(component["x-undocumented"], where));
      const prose = typeof component.description === "string" ? component.description.trim() : "";
      component.description = prose === "" ? note : `${note}\n\n${prose}`;
      noted.push(`${kind}/${name}`);
    }
  }
  return { document, noted };
}
