/**
 * The signed JWT assertion sent to the token endpoint (RFC 7523).
 */
import type { AssertionClaims, AssertionHeader } from "@drill-practice/client/internal";
import { DrillInvalidOptionError } from "@drill-practice/client/internal";
import { SignJWT } from "jose";
import type { ServiceAccountKey } from "./key-file.js";

/**
 * The service rejects an assertion whose `exp` is more than this many seconds ahead.
 */
export const MAX_ASSERTION_LIFETIME_SECONDS = 3600;

/**
 * Default assertion lifetime (5 minutes). The assertion is used once, right away, so a
 * short life limits what a leaked one is worth, while leaving room for a local clock
 * that runs a few minutes behind the server's when no `Date` header corrects it.
 */
export const DEFAULT_ASSERTION_LIFETIME_SECONDS = 300;

/**
 * Input of {@link buildAssertionClaims} and {@link signAssertion}.
 *
 * @example
 * ```ts
 * import { type AssertionInput, parseServiceAccountKey, signAssertion } from "@drill-practice/auth";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const input: AssertionInput = {
 *   key,
 *   subject: key.serviceAccountId,
 *   audience: "https://drill.example/daas/oauth/token",
 *   now: Date.now(),
 *   lifetimeSeconds: 300,
 * };
 * const assertion = await signAssertion(input);
 * ```
 */
export interface AssertionInput {
  /** The service account key; gives `kid` and `iss` and signs. */
  readonly key: ServiceAccountKey;
  /** Who the token is for: the service account ID, or a managed user's ID, email address or third-party ID. */
  readonly subject: string;
  /** URI of the token endpoint the assertion will be sent to. */
  readonly audience: string;
  /** Current time according to the server, in epoch milliseconds. */
  readonly now: number;
  /** Seconds until `exp`; 1..3600. */
  readonly lifetimeSeconds: number;
}

/**
 * Checks an assertion lifetime option: a whole number of seconds from 1 to 3600.
 */
export function validateAssertionLifetime(value: unknown, option = "assertionLifetimeSeconds"): number {
  if (
    typeof value !== "number" ||
    !Number.isInteger(value) ||
    value < 1 ||
    value > MAX_ASSERTION_LIFETIME_SECONDS
  ) {
    throw new DrillInvalidOptionError(
      option,
      `must be a whole number of seconds from 1 to ${MAX_ASSERTION_LIFETIME_SECONDS}`,
    );
  }
  return value;
}

/**
 * The protected header of the assertion.
 */
export function buildAssertionHeader(key: ServiceAccountKey): AssertionHeader {
  return { alg: "RS256", typ: "JWT", kid: key.keyId };
}

/**
 * The claims of the assertion. `exp` is the server time rounded down plus the lifetime,
 * so it is never more than `lifetimeSeconds` (at most 3600) ahead.
 */
export function buildAssertionClaims(input: AssertionInput): AssertionClaims {
  const lifetime = validateAssertionLifetime(input.lifetimeSeconds);
  if (typeof input.subject !== "string" || input.subject === "") {
    throw new DrillInvalidOptionError("subject", "must be a non-empty string");
  }
  return {
    iss: input.key.serviceAccountId,
    sub: input.subject,
    aud: input.audience,
    exp: Math.floor(input.now / 1000) + lifetime,
  };
}

/**
 * Builds and signs the assertion with the service account's private key (RS256).
 * The result is a secret: send it to the token endpoint and nowhere else.
 *
 * @example
 * ```ts
 * import { parseServiceAccountKey, signAssertion } from "@drill-practice/auth";
 *
 * const key = await parseServiceAccountKey(process.env.DRILL_KEY_JSON ?? "");
 * const assertion = await signAssertion({
 *   key,
 *   subject: "user@example.com",
 *   audience: "https://drill.example/daas/oauth/token",
 *   now: Date.now(),
 *   lifetimeSeconds: 300,
 * });
 * // POST it to the token endpoint as `assertion`, with grant_type urn:ietf:params:oauth:grant-type:jwt-bearer.
 * ```
 */
export async function signAssertion(input: AssertionInput): Promise<string> {
  const claims = buildAssertionClaims(input);
  const header = buildAssertionHeader(input.key);
  return new SignJWT({ ...claims }).setProtectedHeader({ ...header }).sign(input.key.privateKey);
}
