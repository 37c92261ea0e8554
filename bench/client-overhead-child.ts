/**
 * Runs the client-overhead measurement in this process and sends the figures to the parent over
 * IPC. client-overhead.ts forks it under another Node version (the runtime matrix's Node 24).
 */
import { measureClientOverhead } from "./client-overhead.ts";

// The parent gone (abandoned the run, or ended): stop, and the loopback server with it.
process.on("disconnect", () => process.exit());

try {
  const measurement = await measureClientOverhead();
  process.send?.({ type: "result", measurement }, () => process.disconnect());
} catch (error) {
  process.exitCode = 1;
  process.send?.(
    { type: "error", error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    () => process.disconnect(),
  );
}
