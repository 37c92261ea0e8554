/**
 * The registry of resource families: add a family's module here and its operations are routed,
 * counted and listed in the support table (see ./README.md).
 */
import { content } from "./content.js";
import { groups } from "./groups.js";

/** Every resource family, in the order the support table lists them. */
export const RESOURCE_FAMILIES = [groups, content] as const;

/** The operationIds of one family's table (distributes over a union, so every family's count). */
type OperationIdsOf<F> = F extends { readonly operations: infer O } ? keyof O : never;

/** The operationId of an operation a family simulates: those of every family, not only the shared ones. */
export type FamilyOperationId = OperationIdsOf<(typeof RESOURCE_FAMILIES)[number]> & string;
