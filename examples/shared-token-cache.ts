/**
 * Several processes sharing one token: a `TokenCache` kept in files.
 *
 * Each process that runs this with the same cache directory reuses the token
 * the first one got, until it nears expiry; only then does one of them ask the
 * token endpoint again. The same three methods (`get`, `set`, `delete`) fit a
 * Redis client just as well (`SET key value EX ttl`, `GET`, `DEL`).
 *
 *   set -a; . ./.sandbox/client.env; set +a
 *   pnpm exec tsx examples/shared-token-cache.ts /tmp/drill-token-cache
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TokenCache } from "@drill-practice/auth";
import { readServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth/node";
import { createDrillClient, unwrap } from "@drill-practice/client";

/**
 * One file per key; written to a fresh temporary file and renamed, so readers
 * never see half a token. The temporary name is random and created
 * exclusively (`wx`), so nothing prepared at that path is followed or reused.
 */
class FileTokenCache implements TokenCache {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, `${encodeURIComponent(key)}.json`);
  }

  async get(key: string): Promise<string | undefined> {
    const text = await readFile(this.file(key), "utf8").catch(() => undefined);
    if (text === undefined) return undefined;
    const entry = JSON.parse(text) as { value: string; expiresAt: number };
    return Date.now() < entry.expiresAt ? entry.value : undefined;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temporary = `${this.file(key)}.${randomUUID()}.tmp`;
    await writeFile(temporary, JSON.stringify({ value, expiresAt: Date.now() + ttlSeconds * 1000 }), {
      mode: 0o600,
      flag: "wx",
    });
    await rename(temporary, this.file(key));
  }

  async delete(key: string): Promise<void> {
    await rm(this.file(key), { force: true });
  }
}

const cacheDir = process.argv[2];
const { DRILL_BASE_URL, DRILL_KEY_FILE, DRILL_CLIENT_ID, DRILL_CLIENT_SECRET } = process.env;
if (!cacheDir || !DRILL_BASE_URL || !DRILL_KEY_FILE || !DRILL_CLIENT_ID || !DRILL_CLIENT_SECRET) {
  console.error(
    "usage: shared-token-cache.ts <cache-dir>, with DRILL_BASE_URL, DRILL_KEY_FILE, DRILL_CLIENT_ID, DRILL_CLIENT_SECRET set",
  );
  process.exit(2);
}

const auth = serviceAccountAuth({
  key: await readServiceAccountKey(DRILL_KEY_FILE),
  clientId: DRILL_CLIENT_ID,
  clientSecret: DRILL_CLIENT_SECRET,
  cache: new FileTokenCache(cacheDir),
});
const client = createDrillClient({ baseUrl: DRILL_BASE_URL, auth });

const results = await unwrap(
  client.GET("/api/2/store", { params: { query: { query: "geography", resultSize: "1" } } }),
);
const token = await auth.getToken();
// The token identifier, never the token itself: it tells whether two processes share one.
console.log(`pid ${process.pid}: token jti=${token.jti} expires ${new Date(token.expiresAt).toISOString()}`);
console.log(`pid ${process.pid}: ${results.total} drillables about geography`);
