/** Runs the client-overhead measurement under another Node (Node 24) and hands it to the parent. */
import { measureClientOverhead } from "./client-overhead.ts";

// The parent gone (abandoned the run, or ended) or done: stop, and the loopback server with it.
process.on("disconnect", () => process.exit());
process.on("message", (message: { type?: string }) => message.type === "close" && process.exit());
try {
  process.send?.({ type: "ready", measurement: await measureClientOverhead() });
} catch (error) {
  process.send?.({
    type: "failed",
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
}
