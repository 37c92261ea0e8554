/**
 * Small AbortSignal utilities that work in every runtime with `fetch`
 * (Node ≥ 20.19, browsers, Deno, Bun).
 */

/**
 * Waits `ms` milliseconds with `setTimeout`, or rejects with the signal's
 * reason when `signal` aborts first.
 *
 * @example
 * ```ts
 * import { abortableSleep } from "./signals.js";
 *
 * await abortableSleep(250, new AbortController().signal);
 * ```
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
