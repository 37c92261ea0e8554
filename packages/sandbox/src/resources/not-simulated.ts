/**
 * Why each 2.1.1 operation the sandbox neither simulates nor answers with an example answers 501:
 * the page that would show its behaviour is cut before it, or no page of it was found. A test keeps
 * this list and the 501s the same, so no 2.1.1 operation is left unsimulated without its reason
 * (the README's table is generated from it).
 */
export const NOT_SIMULATED_REASONS: Readonly<Record<string, string>> = {
  uploadDrill_v2_1_1:
    "the page does not show the UploadedDrill answer's fields, and reading the file formats it lists (Drilldown, CSV, WRTS, Hot Potatoes, Moodle) is beyond a stand-in; the sandbox keeps no drill items",
  acceptForwardedPlayable_v2_1_1:
    "the sandbox forwards nothing (`forwardPlayables_v2_1` is not simulated), so every call could only answer that nothing was forwarded",
  listTestResults_v2_1_1:
    "the page names a TestResults object whose fields no stored page shows, and is cut where its error table starts; the tickets and PINs it addresses are issued (`createTestTicket_v2_1_1`), but the sandbox keeps no anonymous attempts to report",
  listTestAccesses_v2_1_1:
    "the page names a TestAccesses object whose fields no stored page shows (only the pages of its entries were found)",
  linkTestDefinition_v2_1_1: "the page is cut inside its form (at `maxRenditions`) and shows no answer",
  listObjectiveEvents_v2_1_1:
    "the page is cut inside the name of its answer object, whose fields no stored page shows; the sandbox also keeps no history of evaluations",
  requestOrganizationLoginByThirdPartyId_v2_1_1:
    "the page is cut inside its parameter table and shows no answer, status or errors",
  requestOrganizationLogin_v2_1_1:
    "the page is cut inside its parameter table and shows no answer, status or errors",
  getCatalog_v2_1_1: "the page names a UserCatalog object whose fields no stored page shows",
  updateCatalog_v2_1_1: "the page is cut inside its form and shows no answer or errors",
  createCatalog_v2_1_1: "the page is cut inside its form and shows no answer or errors",
  listOrganizationCatalogs_v2_1_1: "the page names a Catalogs object whose fields no stored page shows",
  listOrganizationAccounts_v2_1_1:
    "the page names an OrganizationAccounts object whose fields no stored page shows, and is cut inside its error table",
  getUserContract_v2_1_1:
    "the page names a Contract object whose fields no stored page shows, and marks the operation for internal use",
  createUser_v2_1_1: "the page is cut inside its form (at `password`) and shows no answer or errors",
};
