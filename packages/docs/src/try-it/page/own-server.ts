/**
 * Sending to the reader's own server instead of the in-page sandbox: the base URL and token the
 * reader typed, kept in this module's variable only (never stored or logged), and the browser's
 * refusals (mixed content, CORS, an address that is not absolute) told apart from answers.
 */
import type { TryItAnswer, TryItRequest } from "../protocol.ts";
import { encodeRequest } from "../request.ts";

/** The reader's server and token: in this variable only, never stored or logged. */
export const ownServer = { baseUrl: "", token: "" };

/** A request the browser would not send, or whose answer it would not let the page read. */
export class BlockedError extends Error {}

/** Sends the request to the reader's server; a request the browser blocks is a {@link BlockedError}. */
export async function sendToServer(request: TryItRequest): Promise<TryItAnswer> {
  const base = ownServer.baseUrl.replace(/\/+$/, "");
  let url: URL;
  try {
    url = new URL(`${base}${request.target}`);
  } catch {
    throw new BlockedError(`"${ownServer.baseUrl}" is not an absolute URL (such as https://drill.example).`);
  }
  if (location.protocol === "https:" && url.protocol === "http:") {
    throw new BlockedError(
      "This page is served over HTTPS, so the browser blocks a request to an http: address (mixed content).",
    );
  }
  const token = request.authenticated && ownServer.token !== "" ? ownServer.token : undefined;
  const { headers, body } = encodeRequest(request, token);
  let response: Response;
  try {
    response = await fetch(url, {
      method: request.method,
      headers,
      mode: "cors",
      credentials: "omit",
      ...(body === undefined ? {} : { body }),
    });
  } catch {
    throw new BlockedError(
      `The browser did not let this page read an answer from ${url.origin}: the server is unreachable, or it does not allow this site (CORS).`,
    );
  }
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}
