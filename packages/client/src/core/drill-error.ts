/**
 * The base class of every error the SDK throws on purpose. A registered symbol
 * brands it, so that `instanceof DrillError` holds even when the client and
 * auth packages each bring their own copy of this module (two installed
 * versions, a bundled and an unbundled copy).
 */
import type { DrillErrorCode } from "./error-codes.js";

const BRAND: unique symbol = Symbol.for("@drill-practice/DrillError") as never;

/**
 * Base class of every error thrown by `@drill-practice/client` and
 * `@drill-practice/auth`, with a stable `code` from {@link DRILL_ERROR_CODES}.
 * `instanceof DrillError` works across separately installed copies of the
 * packages; for a subclass across copies, compare `code` (or `name`).
 *
 * @example
 * ```ts
 * import { createDrillClient, DrillError } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
 * try {
 *   await client.GET("/api/2.1/version");
 * } catch (error) {
 *   if (error instanceof DrillError) console.error(error.code, error.message);
 *   else throw error;
 * }
 * ```
 */
export abstract class DrillError extends Error {
  /** Stable machine-readable code; see {@link DRILL_ERROR_CODES}. */
  abstract readonly code: DrillErrorCode;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }

  /**
   * `DrillError` itself recognises any branded error, from whichever copy of
   * the package made it; a subclass also accepts a branded error of the same
   * `name` from another copy.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof`.
    return isBrandedInstance(this, value);
  }
}

Object.defineProperty(DrillError.prototype, BRAND, { value: true });

function isBrandedInstance(target: abstract new (...args: never[]) => DrillError, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if ((value as { [BRAND]?: unknown })[BRAND] !== true) return false;
  if (target === DrillError) return true;
  return Function.prototype[Symbol.hasInstance].call(target, value) || (value as Error).name === target.name;
}
