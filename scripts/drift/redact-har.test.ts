/**
 * No secrets on disk: `pnpm drift:record` keeps only a redacted recording. First on a real token
 * exchange and authenticated calls through the proxy in front of the sandbox, then field by field
 * on a recording written by hand.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { serviceAccountAuth } from "@drill-practice/auth/node";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { assertNoSecrets, type Har, type HarEntry, marker, redactHar, secretsLeft } from "./redact-har.ts";
import { recordTraffic, type TrafficRun } from "./traffic-run.ts";

const dir = scratchDirForAll("drill-redact-test-");

describe("drift:record on a real token exchange and authenticated calls", () => {
  let run: TrafficRun;
  let kept: string;
  const secrets: string[] = [];
  /** What the private folder held while the proxy ran. */
  let privateFolder: { mode: number; files: string[]; rawHeldSecret: boolean } | undefined;

  beforeAll(async () => {
    run = await recordTraffic(
      join(dir(), "exchange"),
      [
        {
          name: "token exchange and calls",
          run: async ({ proxyUrl, sandbox, credentialsDir }) => {
            const keyFile = join(credentialsDir, "service-account.json");
            const auth = serviceAccountAuth({
              keyFile,
              clientId: sandbox.credentials.clientId,
              clientSecret: sandbox.credentials.clientSecret,
              baseUrl: proxyUrl,
            });
            const token = (await auth.getToken()).value;
            secrets.push(
              token,
              sandbox.credentials.clientSecret,
              sandbox.credentials.keyFile()?.privateKey ?? "",
            );
            const call = (path: string, headers: Record<string, string>) =>
              fetch(`${proxyUrl}${path}`, { headers }).then((res) => res.arrayBuffer());
            await call("/api/2.1/session", { authorization: `Bearer ${token}` });
            await call("/api/2/version", {
              authorization: `OAuth ${token}`,
              cookie: `session=${token}; theme=dark`,
            });
            await call(`/api/2/version?access_token=${token}`, { authorization: `Bearer ${token}` });

            // While the proxy runs, its raw recording sits in a private folder, secrets in clear.
            // The proxy appends an exchange after answering it, so under load the last line can lag.
            const tmp = join(dir(), "exchange", "tmp");
            const look = async () => {
              const [folder] = (await readdir(tmp)).filter((name) => name.startsWith("drill-drift-"));
              if (folder === undefined) throw new Error("no private folder for the raw recording");
              const files = await readdir(join(tmp, folder));
              const raw = await Promise.all(files.map((file) => readFile(join(tmp, folder, file), "utf8")));
              return {
                mode: (await stat(join(tmp, folder))).mode & 0o777,
                files,
                rawHeldSecret: raw.some((text) => text.includes(sandbox.credentials.clientSecret)),
              };
            };
            privateFolder = await vi
              .waitFor(
                async () => {
                  const seen = await look();
                  if (!seen.rawHeldSecret)
                    throw new Error("the raw recording does not hold the exchange yet");
                  return seen;
                },
                { timeout: 10_000, interval: 100 },
              )
              .catch(look);
          },
        },
      ],
      [],
    );
    kept = await readFile(run.harFile, "utf8");
  }, 180_000);

  it("writes the raw recording only into a private folder, deleted once the redacted copy is kept", async () => {
    expect(privateFolder?.mode).toBe(0o700);
    expect(privateFolder?.rawHeldSecret).toBe(true);
    // (tsx keeps a cache folder of its own there.)
    const left = await readdir(join(dir(), "exchange", "tmp"));
    expect(left.filter((name) => name.startsWith("drill-drift-"))).toEqual([]);
    expect(run.recorderOutput).toMatch(/kept 5 exchange\(s\) in .*traffic\.har/);
    expect(run.recorderOutput).toMatch(/the raw recording is deleted/);
  });

  it("keeps no access token, client secret, assertion, private key, cookie or Authorization value", () => {
    expect(secrets.filter((secret) => secret.length > 0)).toHaveLength(3);
    for (const secret of secrets) expect(kept.includes(secret)).toBe(false);
    expect(kept).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ/); // no JWT, so no assertion
    expect(secretsLeft(kept, secrets)).toEqual([]);
  });

  it("says what was there, where it was", () => {
    const entries = run.har.log.entries;
    const exchange = entries.find((e) => e.request.url.endsWith("/daas/oauth/token")) as HarEntry;
    const form = new URLSearchParams(exchange.request.postData?.text);
    expect(form.get("client_secret")).toBe("[redacted: client secret]");
    expect(form.get("assertion")).toBe("[redacted: JWT assertion]");
    expect(form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(form.get("client_id")).not.toMatch(/redacted/);
    const reply = JSON.parse(exchange.response.content?.text ?? "{}") as Record<string, unknown>;
    expect(reply.access_token).toBe("[redacted: access token]");
    expect(reply.token_type).toBe("bearer");
    expect(reply.jti).toEqual(expect.any(String));

    const header = (entry: HarEntry | undefined, name: string) =>
      entry?.request.headers.find((h) => h.name.toLowerCase() === name)?.value;
    const session = entries.find((e) => e.request.url.endsWith("/api/2.1/session"));
    expect(header(session, "authorization")).toBe("Bearer [redacted: access token]");
    const withCookie = entries.find((e) => header(e, "cookie") !== undefined);
    expect(header(withCookie, "authorization")).toBe("OAuth [redacted: access token]");
    expect(header(withCookie, "cookie")).toBe("session=[redacted: cookie]; theme=[redacted: cookie]");
    expect(withCookie?.request.cookies?.map((c) => c.value)).toEqual([
      "[redacted: cookie]",
      "[redacted: cookie]",
    ]);
    const withQuery = entries.find((e) => e.request.url.includes("access_token="));
    expect(new URL(withQuery?.request.url ?? "").searchParams.get("access_token")).toBe(
      "[redacted: access token]",
    );
    expect(withQuery?.request.queryString).toEqual([
      { name: "access_token", value: "[redacted: access token]" },
    ]);
  });

  it("leaves the recording as checkable as before: the exchange and the Bearer call match the description", () => {
    const findings = run.report.problems.map((p) => `${p.ruleId} ${p.method} ${p.path}`);
    // The OAuth scheme word and the undocumented query parameter are the only findings.
    expect(findings.filter((f) => f.includes("/daas/oauth/token") || f.includes("/api/2.1/session"))).toEqual(
      [],
    );
    expect(run.report.run.documentedExchanges).toBe(5);
  });
});

describe("redactHar, field by field", () => {
  const token = "tok_0123456789abcdefghij";
  const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
  const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----";
  const publicPem = "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG\n-----END PUBLIC KEY-----";

  function entry(
    request: Partial<HarEntry["request"]>,
    response: Partial<HarEntry["response"]> = {},
  ): HarEntry {
    return {
      request: { url: "http://127.0.0.1:4010/api/2/version", headers: [], ...request },
      response: { headers: [], ...response },
    };
  }

  function redacted(...entries: HarEntry[]): { har: Har; text: string } {
    const har: Har = { log: { entries } };
    redactHar(har);
    const text = JSON.stringify(har);
    assertNoSecrets(text, [token]);
    return { har, text };
  }

  it("replaces headers: Authorization (keeping the scheme), Proxy-Authorization, API keys, Set-Cookie", () => {
    const { har } = redacted(
      entry(
        {
          headers: [
            { name: "Authorization", value: `Basic ${btoa("user:password")}` },
            { name: "Proxy-Authorization", value: "opaque-proxy-credential" },
            { name: "X-Api-Key", value: "key-123456789" },
            { name: "X-Trace", value: `carrying ${jwt}` },
            { name: "Accept", value: "application/json" },
          ],
        },
        { headers: [{ name: "Set-Cookie", value: "sid=abcdefghijk; Path=/; HttpOnly" }] },
      ),
    );
    const [only] = har.log.entries as [HarEntry];
    expect(only.request.headers.map((h) => h.value)).toEqual([
      "Basic [redacted: credentials]",
      "[redacted: authorization]",
      "[redacted: x-api-key header]",
      "carrying [redacted: JWT]",
      "application/json",
    ]);
    expect(only.response.headers[0]?.value).toBe("sid=[redacted: cookie]; Path=/; HttpOnly");
  });

  it("replaces secret form fields and leaves the others byte for byte", () => {
    const text = `grant_type=urn%3Aietf&client_id=my-app&client_secret=s%2Fcr%2Bt&assertion=${jwt}&password=hunter2hunter2`;
    const { har } = redacted(
      entry({
        method: "POST",
        postData: { mimeType: "application/x-www-form-urlencoded; charset=utf-8", text },
      }),
    );
    const form = har.log.entries[0]?.request.postData?.text ?? "";
    expect(form.startsWith("grant_type=urn%3Aietf&client_id=my-app&")).toBe(true);
    const fields = new URLSearchParams(form);
    expect(fields.get("client_secret")).toBe(marker("client secret"));
    expect(fields.get("assertion")).toBe(marker("JWT assertion"));
    expect(fields.get("password")).toBe(marker("password"));
  });

  it("replaces secret JSON fields at any depth, private keys and JWTs inside other values", () => {
    const body = {
      access_token: token,
      refresh_token: "refresh-0123456789",
      nested: [{ clientSecret: "nested-secret-value", privateKey: pem, note: `key ${pem}` }],
      message: `signed ${jwt}`,
      jti: "a-token-id",
      publicKey: `key ${publicPem}`,
    };
    const { har } = redacted(
      entry({}, { content: { mimeType: "application/json", text: JSON.stringify(body) } }),
    );
    expect(JSON.parse(har.log.entries[0]?.response.content?.text ?? "")).toEqual({
      access_token: "[redacted: access token]",
      refresh_token: "[redacted: refresh token]",
      nested: [
        {
          clientSecret: "[redacted: client secret]",
          privateKey: "[redacted: private key]",
          note: "key [redacted: private key]",
        },
      ],
      message: "signed [redacted: JWT]",
      jti: "a-token-id",
      publicKey: `key ${publicPem}`,
    });
  });

  it("removes a secret found in one place from every other place (an echo, a log line, a base64 body)", () => {
    const { har, text } = redacted(
      entry(
        { headers: [{ name: "authorization", value: `Bearer ${token}` }] },
        { content: { mimeType: "text/plain", text: `you sent ${token}` } },
      ),
      entry(
        { url: `http://127.0.0.1:4010/api/2/store?query=x&note=${encodeURIComponent(`a ${token}`)}` },
        { content: { mimeType: "application/octet-stream", encoding: "base64", text: btoa(`bin ${token}`) } },
      ),
    );
    expect(text).toContain("you sent [redacted: access token]");
    expect(text).toContain("[redacted: body that held a secret]");
    const url = new URL(har.log.entries[1]?.request.url ?? "");
    expect(url.search).toMatch(/^\?query=x&note=[^ [\]]+$/);
    expect(url.searchParams.get("note")).toBe("a [redacted: access token]");
  });

  it("refuses what is not a HAR, and the final scan catches what a rule missed", () => {
    expect(() => redactHar({ entries: [] })).toThrow(/not a HAR recording/);
    const missed: Har = {
      log: { entries: [entry({ headers: [{ name: "Authorization", value: "Bearer abc" }] })] },
    };
    expect(secretsLeft(JSON.stringify(missed))).toEqual(["the Authorization header"]);
    expect(() => assertNoSecrets(`{"x":"${jwt}"}`)).toThrow(/still shows a JWT/);
    expect(() => assertNoSecrets(`{"x":"${jwt}"}`)).not.toThrow(new RegExp(jwt));
  });
});
