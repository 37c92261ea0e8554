/**
 * A bare node:http server for the benchmarks, run as a child process (see fixtures.ts): discovery
 * document, token exchange (checks the client, verifies the RS256 assertion, counts exchanges per
 * subject) and `GET /api/2/store` answering a fixed small JSON body to bearer tokens it issued.
 * Nothing else. It is the reference that isolates client overhead.
 */
import { createPublicKey, randomBytes, randomUUID, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { LoopbackInit } from "./fixtures.ts";
import { receiveInit } from "./receive-init.mjs";

const GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
const MAX_BODY_BYTES = 64 * 1024;

const init = await receiveInit<LoopbackInit>();
const publicKey = createPublicKey(init.publicKeyPem);
const { clientId, clientSecret, exchangeDelayMs } = init;

const STORE_BODY = Buffer.from(
  JSON.stringify({
    total: 1,
    drills: [
      {
        id: "drill-bench-1",
        name: "Spanish verbs",
        subject: "Spanish",
        type: "DRILL",
        description: "Present tense of common verbs",
      },
    ],
  }),
);

const issued = new Set<string>();
const exchanges: Record<string, number> = {};
let rejectedExchanges = 0;
let apiRequests = 0;
let unauthorized = 0;
let baseUrl = "";

function send(
  response: ServerResponse,
  status: number,
  body: Buffer | string,
  type = "application/json",
): void {
  response.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(body) });
  response.end(body);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error("body too large"));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/** The assertion's subject when its RS256 signature verifies, else undefined. */
function verifiedSubject(assertion: string): string | undefined {
  const [header, payload, signature] = assertion.split(".");
  if (header === undefined || payload === undefined || signature === undefined) return undefined;
  const ok = verify(
    "sha256",
    Buffer.from(`${header}.${payload}`),
    publicKey,
    Buffer.from(signature, "base64url"),
  );
  if (!ok) return undefined;
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { sub?: unknown };
  return typeof claims.sub === "string" ? claims.sub : undefined;
}

async function exchange(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readBody(request));
  const assertion = form.get("assertion") ?? "";
  const subject =
    form.get("grant_type") === GRANT_TYPE &&
    form.get("client_id") === clientId &&
    form.get("client_secret") === clientSecret
      ? verifiedSubject(assertion)
      : undefined;
  if (subject === undefined) {
    rejectedExchanges++;
    send(response, 400, JSON.stringify({ error: "invalid_grant" }));
    return;
  }
  exchanges[subject] = (exchanges[subject] ?? 0) + 1;
  if (exchangeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, exchangeDelayMs));
  const token = randomBytes(24).toString("base64url");
  issued.add(token);
  send(
    response,
    200,
    JSON.stringify({
      access_token: token,
      token_type: "bearer",
      expires_in: 3599,
      scope: "ROLE_USER",
      jti: randomUUID(),
    }),
  );
}

function store(request: IncomingMessage, response: ServerResponse): void {
  apiRequests++;
  const authorization = request.headers.authorization ?? "";
  if (!authorization.startsWith("Bearer ") || !issued.has(authorization.slice(7))) {
    unauthorized++;
    send(response, 401, JSON.stringify({ ID: "unauthorized" }));
    return;
  }
  send(response, 200, STORE_BODY);
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const path = (request.url ?? "/").split("?")[0];
  if (request.method === "GET" && path === "/api/2/store") {
    store(request, response);
  } else if (request.method === "POST" && path === "/daas/oauth/token") {
    exchange(request, response).catch(() =>
      send(response, 400, JSON.stringify({ error: "invalid_request" })),
    );
  } else if (request.method === "GET" && path === "/.well-known/oauth-authorization-server") {
    send(response, 200, JSON.stringify({ issuer: baseUrl, token_endpoint: `${baseUrl}/daas/oauth/token` }));
  } else {
    send(response, 404, JSON.stringify({ ID: "not_found" }));
  }
});
server.headersTimeout = 60_000;
const sockets = new Set<Socket>();
server.on("connection", (socket: Socket) => {
  sockets.add(socket);
  socket.on("close", () => sockets.delete(socket));
});

function shutdown(): void {
  server.close(() => process.exit(0));
  for (const socket of sockets) socket.destroy();
  setTimeout(() => process.exit(0), 2000).unref();
}

process.on("message", (message: { type: string; id?: number }) => {
  if (message.type === "close") shutdown();
  else if (message.type === "stats") {
    process.send?.({
      type: "stats",
      id: message.id,
      exchanges,
      rejectedExchanges,
      apiRequests,
      unauthorized,
    });
  } else if (message.type === "reset") {
    for (const subject of Object.keys(exchanges)) delete exchanges[subject];
    rejectedExchanges = 0;
    apiRequests = 0;
    unauthorized = 0;
    process.send?.({ type: "reset", id: message.id });
  }
});
process.on("disconnect", shutdown);

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  process.send?.({ type: "ready", url: baseUrl });
});
