/**
 * The child side of the bench's start protocol (see `startChild` in fixtures.ts), in plain
 * JavaScript so that a child can run without tsx: it says it is waiting, then resolves with the
 * parent's `init` message.
 *
 * @example
 * const init = await receiveInit();
 */
export function receiveInit() {
  return new Promise((resolve) => {
    /** @param {{ type?: unknown }} message */
    const onMessage = (message) => {
      if (message.type !== "init") return;
      process.off("message", onMessage);
      resolve(message);
    };
    process.on("message", onMessage);
    process.send?.({ type: "waiting" });
  });
}
