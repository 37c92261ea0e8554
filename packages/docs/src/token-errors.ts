/**
 * The token endpoint's error answers as the sandbox gives them (the interface does not show the
 * real service's). `test/token-errors.test.ts` provokes each one from a running sandbox, so this
 * table cannot drift from what the sandbox does.
 */
export interface TokenEndpointError {
  /** The `id` field, which equals RFC 6749's `error` (section 5.2). */
  error: string;
  status: number;
  /** When the sandbox answers with it. */
  when: string;
  /** What to do about it. */
  fix: string;
}

/** Every token error the sandbox answers with, in the order a failing setup usually meets them. */
export const tokenEndpointErrors: readonly TokenEndpointError[] = [
  {
    error: "invalid_request",
    status: 400,
    when: "a form field is missing or given twice (415 for a body that is not a form, 413 for one too large)",
    fix: "send all four fields once each as application/x-www-form-urlencoded",
  },
  {
    error: "unsupported_grant_type",
    status: 400,
    when: "grant_type is not urn:ietf:params:oauth:grant-type:jwt-bearer",
    fix: "use the JWT bearer grant type exactly",
  },
  {
    error: "invalid_client",
    status: 401,
    when: "the client ID is unknown or the client secret does not match it",
    fix: "check DRILL_CLIENT_ID and DRILL_CLIENT_SECRET belong to the same registered application",
  },
  {
    error: "invalid_grant",
    status: 400,
    when: "the assertion breaks a rule: signature, kid, iss, sub, aud or exp (description names which)",
    fix: "read description (error_description in RFC 6749 terms); most often the clock is off, aud is not the token endpoint URI, or the key file belongs to another account",
  },
];
