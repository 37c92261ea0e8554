import { connect } from "node:net";
import { describe, expect, it } from "vitest";
import { closedLoopbackPort } from "../src/ports.js";

/** How a TCP connect to 127.0.0.1:`port` ends: "connected", or the error's code. */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe("closedLoopbackPort", () => {
  it("is a port where a connect is refused", async () => {
    const port = await closedLoopbackPort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65_536);
    expect(await connectOutcome(port)).toBe("ECONNREFUSED");
  });
});
