/**
 * The errors page lists the token endpoint's errors as the sandbox answers them. Each row is
 * provoked here from a running sandbox, so the page cannot claim a status or code the sandbox
 * does not give.
 */
import { type Sandbox, startSandbox } from "@drill-practice/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenEndpointErrors } from "../src/token-errors.ts";

const grant = "urn:ietf:params:oauth:grant-type:jwt-bearer";

describe("token endpoint errors of the errors page", () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox();
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  async function post(fields: Record<string, string>): Promise<{ status: number; error: unknown }> {
    const response = await fetch(`${sandbox.url}/daas/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
    const body = (await response.json()) as { error?: unknown };
    return { status: response.status, error: body.error };
  }

  const provoke: Record<string, () => Record<string, string>> = {
    invalid_request: () => ({ grant_type: grant, client_id: sandbox.credentials.clientId }),
    unsupported_grant_type: () => ({
      grant_type: "client_credentials",
      client_id: sandbox.credentials.clientId,
      client_secret: sandbox.credentials.clientSecret,
      assertion: "x",
    }),
    invalid_client: () => ({
      grant_type: grant,
      client_id: "nobody",
      client_secret: "wrong",
      assertion: "x",
    }),
    invalid_grant: () => ({
      grant_type: grant,
      client_id: sandbox.credentials.clientId,
      client_secret: sandbox.credentials.clientSecret,
      assertion: "not.a.jwt",
    }),
  };

  it.each(tokenEndpointErrors.map((row) => [row.error, row] as const))("%s", async (error, row) => {
    const fields = provoke[error];
    if (!fields) throw new Error(`no way to provoke ${error}: add one to this test`);
    await expect(post(fields())).resolves.toEqual({ status: row.status, error });
  });
});
