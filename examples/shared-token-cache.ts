/**
 * Several processes sharing one token through Redis, with `@drill-practice/auth/redis`.
 *
 * Start this a few times at once with the same Redis: one process exchanges an
 * assertion for a token, the others wait for it and use the same token (single
 * flight across processes). The token is sealed with AES-256-GCM under a key derived
 * from the client secret, and key names are HMACs, so Redis holds nothing usable.
 * If Redis is down, each process carries on with its own exchange and says so once.
 *
 *   set -a; . ./.sandbox/client.env; set +a
 *   redis-server --port 6390 --save '' --appendonly no &
 *   for i in 1 2 3; do pnpm exec tsx examples/shared-token-cache.ts redis://127.0.0.1:6390 & done; wait
 */
import { readServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth/node";
import { createRedisTokenCache } from "@drill-practice/auth/redis";
import { createDrillClient, unwrap } from "@drill-practice/client";

const redisUrl = process.argv[2] ?? process.env.DRILL_TOKEN_CACHE;
const { DRILL_BASE_URL, DRILL_KEY_FILE, DRILL_CLIENT_ID, DRILL_CLIENT_SECRET } = process.env;
if (!redisUrl || !DRILL_BASE_URL || !DRILL_KEY_FILE || !DRILL_CLIENT_ID || !DRILL_CLIENT_SECRET) {
  console.error(
    "usage: shared-token-cache.ts <redis-url>, with DRILL_BASE_URL, DRILL_KEY_FILE, DRILL_CLIENT_ID, DRILL_CLIENT_SECRET set",
  );
  process.exit(2);
}

const key = await readServiceAccountKey(DRILL_KEY_FILE);
// The store's keys come from the client secret and the key ID: processes that share
// both share tokens; anything else in the same Redis stays unreadable to them.
const cache = await createRedisTokenCache({
  url: redisUrl,
  clientSecret: DRILL_CLIENT_SECRET,
  keyId: key.keyId,
});
try {
  const auth = serviceAccountAuth({
    key,
    clientId: DRILL_CLIENT_ID,
    clientSecret: DRILL_CLIENT_SECRET,
    cache,
  });
  const client = createDrillClient({ baseUrl: DRILL_BASE_URL, auth });

  const results = await unwrap(
    client.GET("/api/2/store", { params: { query: { query: "geography", resultSize: "1" } } }),
  );
  const token = await auth.getToken();
  // The token identifier, never the token itself: it tells whether processes share one.
  console.log(
    `pid ${process.pid}: token jti=${token.jti} expires ${new Date(token.expiresAt).toISOString()}`,
  );
  console.log(`pid ${process.pid}: ${results.total} drillables about geography`);
} finally {
  // Closes the store's connections, so the process can exit.
  await cache.close();
}
