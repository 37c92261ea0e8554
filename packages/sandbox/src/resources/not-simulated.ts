/**
 * Why each 2.1.1 operation the sandbox neither simulates nor answers with an example answers 501:
 * the page that would show its behaviour is cut before it, or no page of it was found. A test keeps
 * this list and the 501s the same, so no 2.1.1 operation is left unsimulated without its reason
 * (the README's table is generated from it).
 */
export const NOT_SIMULATED_REASONS: Readonly<Record<string, string>> = {
  uploadDrill_v2_1_1:
    "the page does not show the UploadedDrill answer's fields, and reading the file formats it lists (Drilldown, CSV, WRTS, Hot Potatoes, Moodle) is beyond a stand-in; the sandbox keeps no drill items",
};
