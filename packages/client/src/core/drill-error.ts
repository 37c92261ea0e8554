/**
 * The base class of every error the SDK throws on purpose, and the one rule by
 * which `instanceof` recognises an error made by another installed copy of the
 * packages (two installed versions, a bundled and an unbundled copy): a
 * registered symbol brands the family, a concrete class is matched by its
 * `code`, an abstract family base by a brand of its own. Names and codes are
 * literal strings in each class, so a minifier that renames classes changes
 * neither.
 */
import type { DrillErrorCode } from "./error-codes.js";

const BRAND: unique symbol = Symbol.for("@drill-practice/DrillError") as never;
/** Where a family base keeps its own brand (see {@link brandErrorFamily}). */
const FAMILY: unique symbol = Symbol.for("@drill-practice/DrillError.family") as never;

type ErrorClass = abstract new (...args: never[]) => DrillError;

/**
 * Base class of every error thrown by `@drill-practice/client` and
 * `@drill-practice/auth`, with a stable `code` from {@link DRILL_ERROR_CODES}.
 * `instanceof DrillError` and `instanceof` any of its classes work across
 * separately installed copies of the packages, minified or not: a class is
 * matched by its `code`.
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
  /** The class name, stated as a literal by each class (a minifier renames classes, not strings). */
  abstract override readonly name: string;

  /**
   * `DrillError` recognises any error of the family, from whichever copy of
   * the package made it; a concrete class also accepts an error of the same
   * `code` from another copy, a family base (such as auth's `KeyFileError`)
   * one that carries its brand.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class on the right of `instanceof`.
    return isBrandedInstance(this, value);
  }
}

Object.defineProperty(DrillError.prototype, BRAND, { value: true });
Object.defineProperty(DrillError, FAMILY, { value: BRAND });

/**
 * Gives an abstract family base of `DrillError` (such as auth's `KeyFileError`)
 * a brand of its own, registered under `key`, so that `instanceof` the base
 * holds for its subclasses from any installed copy.
 *
 * @example
 * ```ts
 * import { brandErrorFamily, DrillError } from "@drill-practice/client/internal";
 *
 * abstract class StoreError extends DrillError {}
 * brandErrorFamily(StoreError, "@example/StoreError");
 * ```
 */
export function brandErrorFamily(base: ErrorClass, key: string): void {
  const brand = Symbol.for(key);
  Object.defineProperty(base, FAMILY, { value: brand });
  Object.defineProperty(base.prototype, brand, { value: true });
}

/**
 * The `ErrorOptions` for a cause that may be absent, so that an error made without one has no
 * `cause` property at all (rather than `cause: undefined`).
 *
 * @example
 * ```ts
 * import { causeOption } from "@drill-practice/client/internal";
 *
 * const cause: unknown = undefined;
 * const error = new Error("lookup failed", causeOption(cause));
 * console.log("cause" in error); // false
 * ```
 */
export function causeOption(cause: unknown): ErrorOptions | undefined {
  return cause === undefined ? undefined : { cause };
}

function isBrandedInstance(target: ErrorClass, value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  if ((value as { [BRAND]?: unknown })[BRAND] !== true) return false;
  if (Function.prototype[Symbol.hasInstance].call(target, value)) return true;
  // Another copy's class: only what the class itself states counts, never what it inherits
  // (a subclass an application derives matches its own instances only).
  if (Object.hasOwn(target, "code")) {
    const code = (target as unknown as { code: unknown }).code;
    return typeof code === "string" && (value as { code?: unknown }).code === code;
  }
  if (Object.hasOwn(target, FAMILY)) {
    const brand = (target as unknown as { [FAMILY]: symbol })[FAMILY];
    return (value as Record<symbol, unknown>)[brand] === true;
  }
  return false;
}
