/**
 * The Drill Practice Service API 2.1.1 on its own: the same client, errors and
 * helpers as `@drill-practice/client`, typed with the 2.1.1 paths plus token
 * exchange and discovery only. A project that uses one API version imports
 * this entry, and its type checks never load the other version's types.
 * The body is generated for each version from one template
 * (`scripts/generate.ts`, `pnpm generate`).
 *
 * @example
 * ```ts
 * import { createDrillClient } from "@drill-practice/client/v2.1.1";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * const beacons = await client.GET("/api/2.1.1/beacons");
 * ```
 *
 * @packageDocumentation
 */

export * from "./generated/entry-v2.1.1.js";
