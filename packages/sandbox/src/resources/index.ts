/**
 * The registry of resource families: add a family's module here and its operations are routed,
 * counted and listed in the support table (see ./README.md).
 */
import { catalogs } from "./catalogs.js";
import { content } from "./content.js";
import { devices } from "./devices.js";
import { groups } from "./groups.js";
import { invitations } from "./invitations.js";
import { objectives } from "./objectives.js";
import { organizations } from "./organizations.js";
import { tests } from "./tests.js";
import { users } from "./users.js";

/** Every resource family, in the order the support table lists them. */
export const RESOURCE_FAMILIES = [
  groups,
  content,
  tests,
  objectives,
  users,
  organizations,
  catalogs,
  invitations,
  devices,
] as const;

/** The operationId of an operation a family simulates. */
export type FamilyOperationId = KeysOfEach<(typeof RESOURCE_FAMILIES)[number]["operations"]> & string;

/** The keys of every member of a union (plain `keyof` of a union keeps only the keys all share). */
type KeysOfEach<T> = T extends unknown ? keyof T : never;
