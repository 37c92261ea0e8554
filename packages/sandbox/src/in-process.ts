/**
 * `createSandbox`: the in-process door. The same sandbox as `startSandbox`, answering through a `fetch`
 * function instead of a socket, in any runtime with Web APIs (Node, Bun, Deno, Workers, browsers).
 */
import { SandboxOptionError } from "./errors.js";
import type { SandboxControls, SandboxCoreOptions } from "./sandbox-core.js";
import { assembleSandbox } from "./sandbox-core.js";

/**
 * The origin an in-process sandbox answers for. `.invalid` is reserved (RFC 2606), so a request that
 * escapes to the network by mistake can never reach a real host.
 *
 * @example
 * ```ts
 * import { createSandbox, IN_PROCESS_URL } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * console.log(sandbox.url === IN_PROCESS_URL); // true: no socket, a fixed origin
 * ```
 */
export const IN_PROCESS_URL = "https://sandbox.drill-practice.invalid";

/**
 * Options of {@link createSandbox}: those of `startSandbox` without the network and the files
 * (`port`, `host`, `dataFile`, `responsesFile`, `credentialsDir`).
 *
 * @example
 * ```ts
 * import { createSandbox, type InProcessSandboxOptions } from "@drill-practice/sandbox";
 *
 * const options: InProcessSandboxOptions = { validateResponses: true, seed: 7 };
 * const sandbox = await createSandbox(options);
 * ```
 */
export type InProcessSandboxOptions = SandboxCoreOptions;

/**
 * A sandbox in process.
 *
 * @example
 * ```ts
 * import { createSandbox, type InProcessSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox: InProcessSandbox = await createSandbox();
 * const res = await sandbox.fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
 * console.log(res.status); // 200
 * await sandbox.close();
 * ```
 */
export interface InProcessSandbox extends SandboxControls {
  /** `https://sandbox.drill-practice.invalid`: the origin {@link InProcessSandbox.fetch} answers for. */
  readonly url: string;
  /**
   * A drop-in `fetch` that answers requests for {@link InProcessSandbox.url}; a request for any other
   * origin is refused with a `TypeError` (as a network failure would be), never sent anywhere.
   */
  fetch(input: Request | string | URL, init?: RequestInit): Promise<Response>;
  /** Refuses every later request; the sandbox holds no socket or timer, so nothing else needs closing. */
  close(): Promise<void>;
}

/** Options of `startSandbox` that need a socket or a file system. */
const NODE_ONLY_OPTIONS = ["port", "host", "dataFile", "responsesFile", "credentialsDir"] as const;

/**
 * The request as `fetch` would put it on the wire: a body that is empty is no body, and a body's length
 * is declared (`Content-Length`). A request without a body is handed over as it is: whether a `POST` or
 * `PUT` declared its framing is the HTTP door's to say (`declaresFraming`), not a header's.
 */
async function wireRequest(request: Request): Promise<Request> {
  if (request.body === null) return request;
  const bytes = new Uint8Array(await request.arrayBuffer());
  // Copied entry by entry: MSW hands over a Request whose Headers object `new Headers(…)` copies only
  // in part (the fields its interceptor set are left out), while iterating it yields every field.
  const headers = new Headers();
  for (const [name, value] of request.headers) headers.append(name, value);
  headers.set("content-length", String(bytes.byteLength));
  return new Request(request.url, {
    method: request.method,
    headers,
    ...(bytes.byteLength > 0 ? { body: bytes } : {}),
  });
}

/** The origin of a request's URL, read without parsing it when it plainly is the sandbox's. */
function originOf(url: string): string {
  return url.startsWith(`${IN_PROCESS_URL}/`) ? IN_PROCESS_URL : new URL(url).origin;
}

function refuse(message: string): Promise<never> {
  // fetch rejects with a TypeError for a request that cannot be made; callers handle exactly that.
  return Promise.reject(new TypeError(`drill-sandbox (in process): ${message}`));
}

/**
 * Creates a sandbox in process: no socket, no port, nothing to start but the sandbox itself. Pass its
 * `fetch` wherever a client takes one.
 *
 * @example
 * ```ts
 * import { createSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * const res = await sandbox.fetch(`${sandbox.url}/api/2.1/version`);
 * console.log(res.status); // 401: an access token is required
 * ```
 */
export async function createSandbox(options: InProcessSandboxOptions = {}): Promise<InProcessSandbox> {
  // Refused rather than ignored: a JavaScript caller gets no type error for them.
  for (const name of NODE_ONLY_OPTIONS) {
    if ((options as Record<string, unknown>)[name] !== undefined) {
      throw new SandboxOptionError(
        `${name}: not an option of createSandbox, which listens on no port and reads no file (${NODE_ONLY_OPTIONS.join(", ")} are startSandbox's)`,
      );
    }
  }
  const core = await assembleSandbox(options);
  core.setBaseUrl(IN_PROCESS_URL);
  const controls = core.controls();
  let closed = false;
  const fetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    // A client hands over a Request of its own: reading it as it is spares a copy per request (what
    // `fetch` does with it is the same: it reads the body once, and a used body makes it reject).
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    if (closed) {
      const url = new URL(request.url);
      return refuse(`the in-process sandbox is closed (request for ${url.origin}${url.pathname})`);
    }
    const origin = originOf(request.url);
    if (origin !== IN_PROCESS_URL) {
      return refuse(
        `the in-process sandbox answers only for ${IN_PROCESS_URL}, not ${origin} (no request was sent)`,
      );
    }
    if (request.signal.aborted) return Promise.reject(request.signal.reason);
    return core.pipeline(await wireRequest(request));
  };
  return {
    ...controls,
    fetch,
    close: async () => {
      closed = true;
    },
  };
}
