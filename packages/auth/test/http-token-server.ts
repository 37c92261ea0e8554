/**
 * A real HTTP authorization server on 127.0.0.1 (random port) for tests that cross a
 * process boundary: metadata document plus token endpoint, with real verification of
 * each assertion against the service account's public key.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { importSPKI, jwtVerify } from "jose";

export interface HttpTokenServer {
  readonly baseUrl: string;
  readonly tokenEndpoint: string;
  readonly issued: string[];
  readonly requests: URLSearchParams[];
  readonly discoveryCalls: () => number;
  close(): Promise<void>;
}

export interface HttpTokenServerOptions {
  readonly spki: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export async function startHttpTokenServer(options: HttpTokenServerOptions): Promise<HttpTokenServer> {
  const publicKey = await importSPKI(options.spki, "RS256");
  const issued: string[] = [];
  const requests: URLSearchParams[] = [];
  let discovery = 0;
  let base = "";
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", date: new Date().toUTCString() });
      res.end(JSON.stringify(body));
    };
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/.well-known/oauth-authorization-server") {
        discovery++;
        send(200, { issuer: base, token_endpoint: `${base}/daas/oauth/token` });
        return;
      }
      if (req.method !== "POST" || req.url !== "/daas/oauth/token") {
        send(404, { error: "not_found" });
        return;
      }
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      requests.push(form);
      if (form.get("client_id") !== options.clientId || form.get("client_secret") !== options.clientSecret) {
        send(401, { error: "invalid_client", error_description: "client authentication failed" });
        return;
      }
      if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") {
        send(400, { error: "unsupported_grant_type" });
        return;
      }
      jwtVerify(form.get("assertion") ?? "", publicKey, {
        algorithms: ["RS256"],
        audience: `${base}/daas/oauth/token`,
        maxTokenAge: undefined,
      }).then(
        ({ payload }) => {
          const exp = payload.exp ?? 0;
          if (exp - Date.now() / 1000 > 3600) {
            send(400, { error: "invalid_grant", error_description: "exp too far ahead" });
            return;
          }
          const token = `http-at-${issued.length}-${payload.sub}-SECRET`;
          issued.push(token);
          send(200, {
            access_token: token,
            token_type: "bearer",
            expires_in: 3599,
            scope: "ROLE_USER",
            jti: `jti-${issued.length}`,
          });
        },
        (error: Error) => send(400, { error: "invalid_grant", error_description: error.message }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  base = `http://127.0.0.1:${port}`;
  return {
    baseUrl: base,
    tokenEndpoint: `${base}/daas/oauth/token`,
    issued,
    requests,
    discoveryCalls: () => discovery,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
