/**
 * `@drill-practice/sandbox/msw` under MSW 3 (ESM only, Node ≥ 22): the in-process sandbox served by
 * MSW's own `setupServer` to code that calls the global `fetch`. Bundled by `test/msw3.test.ts` next
 * to `runtimes/node_modules` (so `msw` is the pinned MSW 3) and run with the matrix's Node 24. Prints
 * one JSON line of what it saw.
 */

import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { createSandbox } from "@drill-practice/sandbox";
import { sandboxHandlers } from "@drill-practice/sandbox/msw";
import { setupServer } from "msw/node";

const sandbox = await createSandbox({ validateResponses: true });
const server = setupServer(...sandboxHandlers(sandbox));
server.listen({ onUnhandledRequest: "error" });
try {
  const keyFile = sandbox.credentials.keyFile();
  if (!keyFile) throw new Error("no key file");
  // Everything below goes through the global fetch, as code that was given no fetch would.
  const provider = createTokenProvider({
    baseUrl: sandbox.url,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    key: await parseServiceAccountKey(JSON.stringify(keyFile)),
  });
  const { value: access_token } = await provider.getToken();
  const headers = { authorization: `Bearer ${access_token}` };
  const search = await fetch(`${sandbox.url}/api/2.1/store?query=spanish&resultSize=3`, { headers });
  const searched = (await search.json()) as { total: number };
  sandbox.injectFault({ operationId: "getVersion_v2_1", status: 503 });
  const fault = await fetch(`${sandbox.url}/api/2.1/version`, { headers });
  const elsewhere = await fetch("https://elsewhere.drill-practice.invalid/").then(
    () => "answered",
    () => "refused",
  );
  console.log(
    JSON.stringify({
      node: process.versions.node,
      token: access_token.length > 0 ? 200 : 0,
      search: search.status,
      total: searched.total,
      fault: fault.status,
      elsewhere,
      violations: sandbox.responseViolations.length,
    }),
  );
} finally {
  server.close();
}
