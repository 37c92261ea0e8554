/**
 * A whole client session against the in-process sandbox, using Web APIs only: bundled for the browser
 * platform (so a Node module fails the build) and run by `web-core.test.ts` under
 * `--disallow-code-generation-from-strings` (so `new Function`, which Workers forbid, throws).
 */
import { importPKCS8, SignJWT } from "jose";
import { createSandbox } from "../../src/web.js";

const sandbox = await createSandbox({ validateResponses: true });
const keyFile = sandbox.credentials.keyFile();
if (!keyFile) throw new Error("no key file");
const now = Math.floor(Date.now() / 1000);
const assertion = await new SignJWT({
  iss: keyFile.serviceAccountId,
  sub: keyFile.serviceAccountId,
  aud: sandbox.tokenEndpoint,
  exp: now + 300,
})
  .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: keyFile.keyId })
  .sign(await importPKCS8(keyFile.privateKey, "RS256"));
const form = new URLSearchParams({
  grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
  client_id: sandbox.credentials.clientId,
  client_secret: sandbox.credentials.clientSecret,
  assertion,
});
const token = await sandbox.fetch(sandbox.tokenEndpoint, { method: "POST", body: form });
const { access_token } = (await token.json()) as { access_token: string };
const headers = { authorization: `Bearer ${access_token}` };
const search = await sandbox.fetch(`${sandbox.url}/api/2.1/store?query=spanish&resultSize=2`, { headers });
const invalid = await sandbox.fetch(`${sandbox.url}/api/2.1/store?resultSize=many`, { headers });
console.log(
  JSON.stringify({
    token: token.status,
    search: search.status,
    total: ((await search.json()) as { total: number }).total,
    invalid: invalid.status,
    invalidBody: await invalid.json(),
    violations: sandbox.responseViolations.length,
  }),
);
