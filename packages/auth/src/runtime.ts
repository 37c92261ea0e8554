/**
 * Refusal to run in a browser.
 *
 * The JWT bearer grant needs the service account's private key. Anything that runs in
 * a page can be read by its users, so the key would be public. A `document` in the
 * global scope is the sign of a page (or of a DOM emulation that pretends to be one).
 */
import { BrowserRuntimeError } from "./errors.js";

/**
 * Whether a browser document is present in the global scope.
 */
export function hasBrowserDocument(): boolean {
  const scope = globalThis as { document?: unknown };
  return scope.document !== undefined && scope.document !== null;
}

/**
 * Throws {@link BrowserRuntimeError} when a browser document is present.
 */
export function assertServerRuntime(): void {
  if (hasBrowserDocument()) throw new BrowserRuntimeError();
}
