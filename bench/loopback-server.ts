/**
 * The bare node:http server of the benchmarks, run as a child process (fixtures.ts): discovery, the
 * token exchange (checks the client, verifies the RS256 assertion) and
 * `GET /api/2/store` answering a fixed 150-byte body to tokens it issued. The reference that
 * isolates client overhead.
 */
import { createPublicKey, randomBytes, randomUUID, verify } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { LoopbackInit } from "./fixtures.ts";
import { childReady } from "./harness.ts";

const init = JSON.parse(process.env.DRILL_BENCH_INIT ?? "{}") as LoopbackInit;
const publicKey = createPublicKey(init.publicKeyPem);
const drill = { id: "drill-bench-1", name: "Spanish verbs", subject: "Spanish", type: "DRILL" };
const STORE_BODY = JSON.stringify({
  total: 1,
  drills: [{ ...drill, description: "Present tense of common verbs" }],
});
const issued = new Set<string>();
let baseUrl = "";

function send(response: ServerResponse, status: number, body: object | string): void {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
  });
  response.end(text);
}

/** The assertion's subject when its RS256 signature verifies, else undefined. */
function verifiedSubject(assertion: string): string | undefined {
  const [header, payload, signature = ""] = assertion.split(".");
  if (!verify("sha256", Buffer.from(`${header}.${payload}`), publicKey, Buffer.from(signature, "base64url")))
    return undefined;
  const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString("utf8")) as { sub?: unknown };
  return typeof claims.sub === "string" ? claims.sub : undefined;
}

async function exchange(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
  const client = form.get("client_id") === init.clientId && form.get("client_secret") === init.clientSecret;
  const grant = form.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer";
  const subject = grant && client ? verifiedSubject(form.get("assertion") ?? "") : undefined;
  if (subject === undefined) return send(response, 400, { error: "invalid_grant" });
  if (init.exchangeDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, init.exchangeDelayMs));
  const token = randomBytes(24).toString("base64url");
  issued.add(token);
  send(response, 200, {
    access_token: token,
    token_type: "bearer",
    expires_in: 3599,
    scope: "ROLE_USER",
    jti: randomUUID(),
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  const route = `${request.method} ${(request.url ?? "/").split("?")[0]}`;
  const authorization = request.headers.authorization ?? "";
  if (route === "GET /api/2/store") {
    const known = authorization.startsWith("Bearer ") && issued.has(authorization.slice(7));
    send(response, known ? 200 : 401, known ? STORE_BODY : { ID: "unauthorized" });
  } else if (route === "POST /daas/oauth/token")
    exchange(request, response).catch(() => send(response, 400, { error: "invalid_request" }));
  else if (route === "GET /.well-known/oauth-authorization-server")
    send(response, 200, { issuer: baseUrl, token_endpoint: `${baseUrl}/daas/oauth/token` });
  else send(response, 404, { ID: "not_found" });
});
server.listen(0, "127.0.0.1", () => {
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  childReady({ url: baseUrl });
});
