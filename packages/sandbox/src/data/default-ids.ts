/**
 * Well-known IDs of the default dataset (`data/default.json`), for tests, docs and demos.
 *
 * @example
 * ```ts
 * import { createSandbox, DEFAULT_IDS } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox(); // the default dataset
 * const keyFile = sandbox.credentials.keyFile(DEFAULT_IDS.serviceAccount);
 * // Tokens for Ana, a user the service account's organization manages: subject DEFAULT_IDS.users.ana
 * console.log(keyFile?.serviceAccountId, DEFAULT_IDS.users.ana);
 * ```
 */
export const DEFAULT_IDS = {
  organization: "org-sandbox-academy",
  serviceAccount: "svc-sandbox-academy",
  users: {
    ana: "user-ana",
    bram: "user-bram",
    chloe: "user-chloe",
    dieter: "user-dieter",
    emma: "user-emma",
    /** A user outside the organization. */
    olivia: "user-olivia",
  },
  catalogs: {
    business: "catalog-academy-business",
    teachers: "catalog-academy-teachers",
    partner: "catalog-partner-exams",
  },
  group: "group-spanish-a1",
  /** A course of the store (Spanish for beginners), in the group's drills and courses. */
  course: "course-es-beginners",
  /** The group's objective. */
  objective: "objective-spanish-a1",
  /** An email address of a managed user (Ana's), for the operations that address a user by it. */
  email: "ana.garcia@academy.example",
} as const;
