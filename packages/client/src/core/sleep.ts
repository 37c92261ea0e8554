/**
 * The wait between two attempts. Its timer is deliberately a plain, referenced
 * `setTimeout`: a process must not exit while a caller awaits a retry, and the
 * timer is cleared as soon as the wait ends or the caller aborts.
 */

/**
 * Waits `ms` milliseconds with `setTimeout`, or rejects with the signal's
 * reason when `signal` aborts first.
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
