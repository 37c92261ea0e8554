/**
 * `startSandbox`: the `node:http` door. Reads the files the options name, assembles the sandbox
 * (`sandbox-core.ts`), starts the HTTP server on its pipeline and hands back a handle to steer and stop it.
 */
import { createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { DatasetSource } from "./data/dataset.js";
import { readDatasetFile } from "./data/dataset-loader.js";
import { ListenError, SandboxOptionError } from "./errors.js";
import { createRequestListener } from "./node/request-listener.js";
import { writeCredentialsFiles } from "./oauth/credentials-files.js";
import { readResponsesFile } from "./responses/responses-file.js";
import type { SandboxControls, SandboxCoreOptions } from "./sandbox-core.js";
import { assembleSandbox } from "./sandbox-core.js";

/**
 * Options of {@link startSandbox}: those of every sandbox, plus the network and the files.
 *
 * @example
 * ```ts
 * import { type SandboxOptions, startSandbox } from "@drill-practice/sandbox";
 *
 * const options: SandboxOptions = { port: 0, validateResponses: true, dataFile: "./my-data.json" };
 * const sandbox = await startSandbox(options);
 * ```
 */
export interface SandboxOptions extends SandboxCoreOptions, DatasetSource {
  /** TCP port; `0` (the default here; the CLI defaults to 4010) picks a free one. */
  readonly port?: number;
  /** Interface to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** The path of a responses file (`{ "responses": [...] }`), read at start; not with `responses`. */
  readonly responsesFile?: string;
  /** Write `service-account.json` and `client.env` into this directory (created when missing). */
  readonly credentialsDir?: string;
}

/**
 * A running sandbox.
 *
 * @example
 * ```ts
 * import { type Sandbox, startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox: Sandbox = await startSandbox();
 * try {
 *   const res = await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
 *   console.log(res.status); // 200
 * } finally {
 *   await sandbox.close();
 * }
 * ```
 */
export interface Sandbox extends SandboxControls {
  /** Base URL of the service, e.g. `http://127.0.0.1:4010` (no trailing slash). */
  readonly url: string;
  /** The files written with `credentialsDir`, when given. */
  readonly credentialsFiles: { readonly keyFile: string | undefined; readonly envFile: string } | undefined;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

function checkOptions(options: SandboxOptions): void {
  const { port, host } = options;
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new SandboxOptionError("port: must be an integer from 0 to 65535");
  }
  if (host !== undefined && (typeof host !== "string" || host === "")) {
    throw new SandboxOptionError("host: must be a non-empty string");
  }
  if (options.responses !== undefined && options.responsesFile !== undefined) {
    throw new SandboxOptionError("responses, responsesFile: give one of the two");
  }
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * Starts a sandbox.
 *
 * @example
 * ```ts
 * import { startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ validateResponses: true });
 * console.log(sandbox.url, sandbox.credentials.clientId);
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  checkOptions(options);
  const { port, host: hostOption, responsesFile, credentialsDir, dataFile, ...coreOptions } = options;
  const responses =
    responsesFile === undefined
      ? undefined
      : { value: await readResponsesFile(responsesFile), source: responsesFile };
  // The data file is read here (the Node-only part); everything else is the core's.
  const data = await readDatasetFile(options);
  const core = await assembleSandbox(coreOptions, {
    ...(data === undefined ? {} : { data }),
    ...(responses === undefined ? {} : { responses }),
  });

  const host = hostOption ?? "127.0.0.1";
  let baseUrl = "";
  const sockets = new Set<Socket>();
  const server = createServer(
    // Reject header floods early; everything else is bounded by the pipeline.
    { maxHeaderSize: 16 * 1024, requestTimeout: 60_000 },
    createRequestListener(core.pipeline, () => baseUrl),
  );
  // A client may half-close its side once the request is sent (RFC 9112 §9.6); the answer is computed
  // asynchronously (Web Crypto), so the request must outlive that FIN instead of being aborted by it.
  Object.assign(server, { httpAllowHalfOpen: true });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  // Malformed HTTP never reaches the pipeline; answer it with a plain 400 instead of a reset.
  server.on("clientError", (_error, socket: Socket) => {
    if (socket.writable)
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    else socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const reason = error.code === "EADDRINUSE" ? "address already in use" : error.message;
      reject(new ListenError(`cannot listen on ${host}:${port ?? 0}: ${reason}`));
    };
    server.once("error", onError);
    server.listen(port ?? 0, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  baseUrl = `http://${urlHost(host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host)}:${address.port}`;
  core.setBaseUrl(baseUrl);
  const controls = core.controls();

  let closed: Promise<void> | undefined;
  const close = () => {
    closed ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closed;
  };

  let credentialsFiles: Sandbox["credentialsFiles"];
  if (credentialsDir !== undefined) {
    try {
      // Clients read it to find the service: through the proxy, when there is one.
      credentialsFiles = await writeCredentialsFiles(credentialsDir, {
        baseUrl: controls.publicUrl,
        credentials: controls.credentials,
      });
    } catch (error) {
      await close();
      throw error;
    }
  }

  return { ...controls, credentialsFiles, close };
}
