/**
 * Well-known IDs of the default dataset (`data/default.json`), for tests, docs and demos.
 *
 * @example
 * ```ts
 * state.searchStore(DEFAULT_IDS.users.ana, { catalog: DEFAULT_IDS.catalogs.business });
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
} as const;
