/**
 * The real client entries of API 2.1.1 and 2.1 over one test sandbox, acting for one user, and a
 * refusal as a user of the client reads it: the status and the page's identifier.
 */
import { createDrillClient as createClient21 } from "@drill-practice/client/v2.1";
import { createDrillClient as createClient211 } from "@drill-practice/client/v2.1.1";
import { type TestSandbox, tokenFor } from "./helpers.js";

/** Clients of both entries, through the sandbox's own fetch, with a token for `sub` (default: the service account). */
export async function versionClients(sandbox: TestSandbox, sub?: string) {
  const options = {
    baseUrl: sandbox.url,
    fetch: sandbox.fetch,
    headers: { authorization: `Bearer ${await tokenFor(sandbox, sub)}` },
    // A test reads the first answer: a 5xx or 429 retried would hide what the sandbox said.
    retry: false as const,
  };
  return { v211: createClient211(options), v21: createClient21(options) };
}

/** The 2.1.1 client alone, in `{ data, error, response }` mode so a test reads every status. */
export async function v211Client(sandbox: TestSandbox, sub?: string) {
  return (await versionClients(sandbox, sub)).v211;
}

/** The status and error identifier of a client answer. */
export function refusal(answer: { error?: unknown; response: Response }) {
  return { status: answer.response.status, id: (answer.error as { ID?: string } | undefined)?.ID };
}
