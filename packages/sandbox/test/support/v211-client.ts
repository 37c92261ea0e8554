/**
 * The real 2.1.1 client entry (`@drill-practice/client/v2.1.1`) against a test sandbox, through the
 * sandbox's own door (its `fetch`), in `{ data, error, response }` mode so a test reads every status.
 */
import { createDrillClient } from "@drill-practice/client/v2.1.1";
import { type TestSandbox, tokenFor } from "./helpers.js";

/** A 2.1.1 client acting for `sub` (default: the service account itself). */
export async function v211Client(sandbox: TestSandbox, sub?: string) {
  const token = await tokenFor(sandbox, sub);
  return createDrillClient({
    baseUrl: sandbox.url,
    fetch: (request) => sandbox.fetch(request),
    headers: { Authorization: `Bearer ${token}` },
    retry: false,
    throwOnError: false,
  });
}
