/**
 * Small AbortSignal utilities that work in every runtime with `fetch`
 * (Node ≥ 20.19, browsers, Deno, Bun).
 */

/**
 * A combined signal plus a function that detaches it from its sources.
 *
 * @example
 * ```ts
 * import { type CombinedSignal, combineSignals } from "./signals.js";
 *
 * const combined: CombinedSignal = combineSignals([AbortSignal.timeout(1_000)]);
 * combined.dispose();
 * ```
 */
export interface CombinedSignal {
  readonly signal: AbortSignal;
  /** Stops listening to the source signals (a no-op with `AbortSignal.any`). */
  dispose(): void;
}

type AnyFunction = (signals: AbortSignal[]) => AbortSignal;

/**
 * Returns a signal that aborts as soon as one of `signals` aborts, with that
 * signal's reason. Uses `AbortSignal.any` where the runtime has it and falls
 * back to forwarding abort events by hand (`any: null` forces the fallback).
 *
 * @example
 * ```ts
 * import { combineSignals } from "./signals.js";
 *
 * const caller = new AbortController();
 * const timeout = new AbortController();
 * const { signal, dispose } = combineSignals([caller.signal, timeout.signal]);
 * timeout.abort("too slow");
 * console.log(signal.reason); // "too slow"
 * dispose();
 * ```
 */
export function combineSignals(signals: readonly AbortSignal[], any?: AnyFunction | null): CombinedSignal {
  if (any === undefined) any = (AbortSignal as { any?: AnyFunction }).any ?? null;
  if (any) {
    return { signal: any.call(AbortSignal, [...signals]), dispose: () => {} };
  }
  const controller = new AbortController();
  const detachers: (() => void)[] = [];
  const dispose = () => {
    for (const detach of detachers.splice(0)) detach();
  };
  for (const source of signals) {
    if (source.aborted) {
      dispose();
      controller.abort(source.reason);
      break;
    }
    const onAbort = () => {
      dispose();
      controller.abort(source.reason);
    };
    source.addEventListener("abort", onAbort, { once: true });
    detachers.push(() => source.removeEventListener("abort", onAbort));
  }
  return { signal: controller.signal, dispose };
}

/**
 * Settles like `promise`, except that it rejects with the signal's reason as
 * soon as `signal` aborts. Guards against fetch implementations that ignore
 * their signal; `discard` receives a value that arrives after the abort.
 *
 * @example
 * ```ts
 * import { raceAbort } from "./signals.js";
 *
 * const never = new Promise<string>(() => {});
 * await raceAbort(never, AbortSignal.timeout(100)).catch((reason: unknown) => console.log(reason));
 * ```
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  discard: (late: T) => void = () => {},
): Promise<T> {
  const drop = () => {
    promise.then(discard, () => {});
  };
  if (signal.aborted) {
    drop();
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      drop();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

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
