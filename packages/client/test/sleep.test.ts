import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { abortableSleep } from "../src/core/sleep.js";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Records how a promise settles without letting a rejection go unhandled. */
function track(promise: Promise<void>) {
  const state: { settled: boolean; resolved: boolean; error?: unknown } = { settled: false, resolved: false };
  promise.then(
    () => Object.assign(state, { settled: true, resolved: true }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

describe("abortableSleep", () => {
  it("resolves after the given milliseconds and leaves no timer or abort listener behind", async () => {
    const { signal } = new AbortController();
    const sleep = track(abortableSleep(1_000, signal));
    await vi.advanceTimersByTimeAsync(999);
    expect(sleep.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(sleep.resolved).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("does not pile up listeners on a signal that many waits share", async () => {
    // A long-lived signal (one per page or per job) sees many retries; Node warns past 10 listeners.
    const { signal } = new AbortController();
    for (let wait = 0; wait < 20; wait++) {
      const sleep = abortableSleep(10, signal);
      await vi.advanceTimersByTimeAsync(10);
      await sleep;
    }
    expect(getEventListeners(signal, "abort")).toHaveLength(0);
  });

  it("rejects at once with the reason of a signal that is already aborted, setting no timer", async () => {
    const reason = new Error("already gone");
    const sleep = track(abortableSleep(1_000, AbortSignal.abort(reason)));
    await vi.advanceTimersByTimeAsync(0);
    expect(sleep.error).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sleep.resolved).toBe(false);
  });

  it("rejects with the reason when the signal aborts during the wait, and clears its timer and listener", async () => {
    const controller = new AbortController();
    const reason = new Error("cancelled");
    const sleep = track(abortableSleep(60_000, controller.signal));
    await vi.advanceTimersByTimeAsync(500);
    expect(sleep.settled).toBe(false);
    controller.abort(reason);
    await vi.advanceTimersByTimeAsync(0);
    expect(sleep.error).toBe(reason);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
