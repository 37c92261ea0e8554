/**
 * Loopback ports for tests that need an address where nothing listens ("the server is down",
 * "connection refused"), or a port to hand a server that must know it before it starts.
 *
 * @example
 * ```ts
 * import { closedLoopbackPort } from "@drill-practice/tooling/ports";
 *
 * const port = await closedLoopbackPort();
 * await fetch(`http://127.0.0.1:${port}/`).catch((error: Error) => error.cause); // ECONNREFUSED
 * ```
 */
import { createServer } from "node:net";

/**
 * A port on 127.0.0.1 that nothing listens on: one the kernel just gave a listener (bind to port 0),
 * closed again. A connect to it is refused. It is safer than a guessed or neighbouring port: Linux
 * gives bound sockets odd ports and outgoing connections even ones, so this port cannot become a
 * connecting socket's own port, which on a silent port of the other parity can, rarely, happen and
 * connect the socket to itself (a TCP self-connect) instead of being refused.
 *
 * @example
 * ```ts
 * import { connect } from "node:net";
 * import { closedLoopbackPort } from "@drill-practice/tooling/ports";
 *
 * const socket = connect(await closedLoopbackPort(), "127.0.0.1");
 * socket.on("error", (error: NodeJS.ErrnoException) => console.log(error.code)); // "ECONNREFUSED"
 * ```
 */
export async function closedLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("a TCP listener has no port");
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
  return address.port;
}
