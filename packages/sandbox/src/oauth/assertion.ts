/**
 * Verifies the signed JWT assertion of the token exchange against every rule of the interface: header
 * (RS256, typ JWT, known kid), signature, issuer, subject, audience and expiry. Each failure says which
 * rule failed, without repeating the assertion.
 */
import { compactVerify, decodeProtectedHeader } from "jose";
import type { ServiceAccount } from "./credentials.js";

/**
 * Longest time an assertion may still be valid, in seconds (the interface's limit).
 */
export const MAX_ASSERTION_LIFETIME_SECONDS = 3600;

/**
 * Clock skew the sandbox tolerates on `exp` (both ways) and `nbf`, in seconds. The sandbox's own
 * choice: the interface asks for an `exp` in the future and at most one hour ahead and gives no
 * leeway; 30 s spares a test machine whose clock drifts a little a refusal the service may not give.
 *
 * @example
 * ```ts
 * import { CLOCK_LEEWAY_SECONDS } from "@drill-practice/sandbox";
 *
 * // The sandbox still accepts an assertion up to CLOCK_LEEWAY_SECONDS after its `exp` (its own choice).
 * const now = Math.floor(Date.now() / 1000);
 * const accepted = (exp: number) => exp > now - CLOCK_LEEWAY_SECONDS;
 * console.log(accepted(now - 1)); // true
 * ```
 */
export const CLOCK_LEEWAY_SECONDS = 30;

/**
 * What a verified assertion grants: the service account that signed it and the acting user.
 */
export type AssertionResult =
  | { readonly ok: true; readonly account: ServiceAccount; readonly userId: string }
  | { readonly ok: false; readonly description: string };

/**
 * What verification needs from the sandbox.
 */
export interface AssertionContext {
  readonly accounts: readonly ServiceAccount[];
  /** Accepted `aud` values: the token endpoint URI as advertised. */
  readonly audiences: readonly string[];
  readonly nowSeconds: number;
  /**
   * Finds the user a subject names (user ID, email address or third-party ID) among the service
   * account itself and the users its organization manages; returns the user ID.
   */
  resolveUser(subject: string, serviceAccountId: string): string | undefined;
}

const fail = (description: string): AssertionResult => ({ ok: false, description });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Checks an assertion. Never throws: every problem becomes a failure description.
 */
export async function verifyAssertion(assertion: string, ctx: AssertionContext): Promise<AssertionResult> {
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*$/.test(assertion)) {
    return fail(
      "assertion: must be a JWT in compact serialization (three base64url parts separated by dots)",
    );
  }
  let header: Record<string, unknown>;
  try {
    header = decodeProtectedHeader(assertion) as Record<string, unknown>;
  } catch {
    return fail("assertion header: not base64url-encoded JSON");
  }
  if (header.alg !== "RS256") {
    const got = typeof header.alg === "string" ? JSON.stringify(header.alg) : "missing";
    return fail(`assertion header alg: must be "RS256" (got ${got.slice(0, 40)})`);
  }
  if (header.typ !== "JWT") return fail('assertion header typ: must be "JWT"');
  if (typeof header.kid !== "string" || header.kid === "") return fail("assertion header kid: is required");
  const account = ctx.accounts.find((a) => a.keyId === header.kid);
  if (!account) return fail("assertion header kid: does not name the key of a service account");

  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(assertion, account.publicKey, { algorithms: ["RS256"] }));
  } catch {
    return fail("assertion signature: does not verify with the public key named by kid");
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(payload));
  } catch {
    return fail("assertion claims: not a JSON object");
  }
  if (!isRecord(claims)) return fail("assertion claims: not a JSON object");

  if (claims.iss !== account.serviceAccountId) {
    return fail("assertion claim iss: must be the ID of the service account that owns the key named by kid");
  }
  if (typeof claims.sub !== "string" || claims.sub === "") return fail("assertion claim sub: is required");
  const userId =
    claims.sub === account.serviceAccountId
      ? account.serviceAccountId
      : ctx.resolveUser(claims.sub, account.serviceAccountId);
  if (userId === undefined) {
    return fail(
      "assertion claim sub: must be the service account itself or a user (ID, email address or third-party ID) managed by its organization",
    );
  }
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audiences.some((aud) => typeof aud === "string" && ctx.audiences.includes(aud))) {
    return fail(`assertion claim aud: must be the token endpoint URI ${ctx.audiences[0] ?? ""}`.trim());
  }
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)) {
    return fail("assertion claim exp: is required, as seconds since the epoch");
  }
  if (claims.exp <= ctx.nowSeconds - CLOCK_LEEWAY_SECONDS) {
    return fail("assertion claim exp: lies in the past (the assertion has expired)");
  }
  if (claims.exp > ctx.nowSeconds + MAX_ASSERTION_LIFETIME_SECONDS + CLOCK_LEEWAY_SECONDS) {
    return fail(`assertion claim exp: must be at most ${MAX_ASSERTION_LIFETIME_SECONDS} seconds ahead`);
  }
  if (typeof claims.nbf === "number" && claims.nbf > ctx.nowSeconds + CLOCK_LEEWAY_SECONDS) {
    return fail("assertion claim nbf: lies in the future (the assertion is not valid yet)");
  }
  return { ok: true, account, userId };
}
