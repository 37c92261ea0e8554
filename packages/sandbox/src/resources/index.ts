/**
 * The registry of resource families: add a family's module here and its operations are routed,
 * counted and listed in the support table (see ./README.md).
 */
import { devices } from "./devices.js";
import { groups } from "./groups.js";
import { objectives } from "./objectives.js";
import { tests } from "./tests.js";

/** Every resource family, in the order the support table lists them. */
export const RESOURCE_FAMILIES = [groups, tests, objectives, devices] as const;

/** The operationId of an operation a family simulates. */
export type FamilyOperationId = keyof (typeof RESOURCE_FAMILIES)[number]["operations"] & string;
