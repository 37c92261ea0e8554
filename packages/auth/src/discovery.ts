/**
 * Discovery of the token endpoint from the authorization server metadata document
 * at `{baseUrl}/.well-known/oauth-authorization-server` (field `token_endpoint`).
 */
import type { AuthorizationServerMetadata } from "@drill-practice/client/internal";
import { DrillNetworkError, DrillTimeoutError } from "@drill-practice/client/internal";
import { type AuthHttp, authRequest, type ReadResponse } from "./auth-request.js";
import { DiscoveryError } from "./errors.js";

/**
 * Path of the metadata document below the base URL.
 */
export const METADATA_PATH = "/.well-known/oauth-authorization-server";

/**
 * URL of the metadata document for a base URL (trailing slashes are ignored).
 */
export function metadataUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${METADATA_PATH}`;
}

/**
 * Checks that a string is an absolute http(s) URL and returns it normalised.
 */
export function parseHttpUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
  if (url.username !== "" || url.password !== "") return undefined;
  return url.href;
}

/**
 * Fetches the metadata document and returns its `token_endpoint`.
 * Throws {@link DiscoveryError} when the document cannot be fetched, is not JSON, or
 * has no absolute http(s) `token_endpoint`.
 */
export async function discoverTokenEndpoint(baseUrl: string, http: AuthHttp): Promise<string> {
  const url = metadataUrl(baseUrl);
  let attempts = 0;
  let response: ReadResponse;
  try {
    ({ response, attempts } = await authRequest(
      http,
      () => new Request(url, { method: "GET", headers: { accept: "application/json" } }),
      (attempt) => {
        attempts = attempt;
      },
    ));
  } catch (error) {
    if (!(error instanceof DrillNetworkError || error instanceof DrillTimeoutError)) throw error;
    throw new DiscoveryError(`could not fetch the metadata document: ${error.message}`, {
      url,
      attempts,
      cause: error,
    });
  }
  const { status, body } = response;
  if (status < 200 || status > 299) {
    const after = attempts > 1 ? ` after ${plural(attempts)}` : "";
    throw new DiscoveryError(`the server answered HTTP ${status}${after}`, { url, status, attempts });
  }
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    throw new DiscoveryError(`the response (HTTP ${status}) is not JSON`, { url, status, attempts });
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw new DiscoveryError("the metadata document is not a JSON object", { url, status, attempts });
  }
  const metadata = document as Partial<Record<keyof AuthorizationServerMetadata, unknown>>;
  const endpoint = metadata.token_endpoint;
  if (endpoint === undefined) {
    throw new DiscoveryError('the metadata document has no "token_endpoint"', { url, status, attempts });
  }
  if (typeof endpoint !== "string") {
    throw new DiscoveryError('"token_endpoint" in the metadata document is not a string', {
      url,
      status,
      attempts,
    });
  }
  const parsed = parseHttpUrl(endpoint);
  if (parsed === undefined) {
    throw new DiscoveryError('"token_endpoint" in the metadata document is not an absolute http(s) URL', {
      url,
      status,
      attempts,
    });
  }
  return parsed;
}

/**
 * "1 attempt" / "3 attempts".
 */
export function plural(attempts: number): string {
  return attempts === 1 ? "1 attempt" : `${attempts} attempts`;
}
