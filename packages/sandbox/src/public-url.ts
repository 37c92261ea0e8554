/**
 * The rule for a public base URL (`publicUrl`, `--public-url`): where clients reach the sandbox when
 * something such as a recording proxy stands in front of it.
 */

/**
 * Why `value` cannot be a public base URL, or `undefined` when it can: it must be an absolute `http:`
 * or `https:` URL without credentials, query, fragment or trailing slash, since the token endpoint's
 * URI is made by appending `/daas/oauth/token` to it.
 */
export function publicUrlProblem(value: unknown): string | undefined {
  const rule =
    "must be an absolute http: or https: URL without credentials, query, fragment or trailing slash";
  if (typeof value !== "string" || !URL.canParse(value)) return `${rule} (got ${JSON.stringify(value)})`;
  const url = new URL(value);
  const fits =
    (url.protocol === "http:" || url.protocol === "https:") &&
    !value.endsWith("/") &&
    !value.includes("?") &&
    !value.includes("#") &&
    url.username === "" &&
    url.password === "";
  return fits ? undefined : `${rule} (got ${JSON.stringify(value)})`;
}
