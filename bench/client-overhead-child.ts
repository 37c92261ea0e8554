/** Runs the client-overhead measurement under another Node (Node 24) and sends it to the parent. */
import { measureClientOverhead } from "./client-overhead.ts";

// The parent gone (abandoned the run, or ended): stop, and the loopback server with it.
process.on("disconnect", () => process.exit());
try {
  const measurement = await measureClientOverhead();
  process.send?.({ measurement }, () => process.disconnect());
} catch (error) {
  process.exitCode = 1;
  process.send?.({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
    process.disconnect(),
  );
}
