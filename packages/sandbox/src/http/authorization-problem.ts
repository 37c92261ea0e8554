/**
 * What exactly is wrong with an Authorization header that is not `Bearer <token>` or
 * `OAuth <token>`, in words a person can act on. A token is never repeated.
 */

// The service accepts the scheme words Bearer and OAuth, both case-sensitive (observed).
const SCHEMES = ["Bearer", "OAuth"];

/** The 401 description for a malformed Authorization header. */
export function authorizationProblem(header: string): string {
  const value = header.trim();
  if (value === "") {
    return "Authorization: is empty; send Authorization: Bearer <token> (or OAuth <token>)";
  }
  const [word = "", ...rest] = value.split(/\s+/);
  const scheme = SCHEMES.find((name) => name.toLowerCase() === word.toLowerCase());
  if (scheme !== undefined && scheme !== word) {
    return `Authorization: must be Bearer or OAuth followed by an access token (the scheme word is case-sensitive: write "Bearer" or "OAuth", not "${word}")`;
  }
  if (scheme !== undefined && rest.length === 0) {
    // What `Authorization: Bearer $(drill-token)` sends when drill-token failed.
    return `Authorization: ${scheme} with an empty access token (did the command that prints the token fail?)`;
  }
  if (scheme !== undefined) {
    return `Authorization: the access token after ${scheme} must be one word of letters, digits and -._~+/ (then = padding)`;
  }
  if (rest.length === 0) {
    // One word and no scheme: most likely a bare token, which is not repeated.
    return "Authorization: no scheme word before the access token; send Bearer <token> (or OAuth <token>)";
  }
  const shown = /^[A-Za-z][A-Za-z0-9-]{0,19}$/.test(word) ? ` ${word}` : "";
  return `Authorization: unknown scheme${shown}; send Bearer <token> (or OAuth <token>)`;
}
