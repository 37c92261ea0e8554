/**
 * `@drill-practice/sandbox/msw`: the in-process sandbox behind Mock Service Worker, for code that calls
 * the global `fetch` (or XMLHttpRequest) and cannot be handed `sandbox.fetch`. Works with MSW 2 and 3
 * (`msw` is an optional peer dependency: only this entry needs it).
 *
 * @example
 * ```ts
 * import { createSandbox } from "@drill-practice/sandbox";
 * import { sandboxHandlers } from "@drill-practice/sandbox/msw";
 * import { setupServer } from "msw/node";
 *
 * const sandbox = await createSandbox();
 * const server = setupServer(...sandboxHandlers(sandbox));
 * server.listen({ onUnhandledRequest: "error" });
 * ```
 */
import { http } from "msw";
import type { InProcessSandbox } from "./in-process.js";

/**
 * The sandbox as MSW request handlers: every request for `sandbox.url` (any method, any path) is
 * answered by `sandbox.fetch`, with the sandbox's full behaviour (tokens, state, validation, faults,
 * programmed responses). Requests for other origins are left to your other handlers.
 *
 * @example
 * ```ts
 * import { createSandbox } from "@drill-practice/sandbox";
 * import { sandboxHandlers } from "@drill-practice/sandbox/msw";
 * import { setupServer } from "msw/node";
 *
 * const sandbox = await createSandbox();
 * const server = setupServer(...sandboxHandlers(sandbox));
 * server.listen();
 * // in a browser: await setupWorker(...sandboxHandlers(sandbox)).start();
 * ```
 */
export function sandboxHandlers(
  sandbox: Pick<InProcessSandbox, "url" | "fetch">,
): ReturnType<typeof http.all>[] {
  return [http.all(`${sandbox.url}/*`, ({ request }) => sandbox.fetch(request))];
}
