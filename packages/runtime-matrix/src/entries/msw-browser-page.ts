/**
 * A web page that mocks the service with MSW's `setupWorker` and the in-process sandbox
 * (`sandboxHandlers`), as a Storybook or component test would. Code that calls the global `fetch`
 * gets the sandbox's answers: the page's own code, and the "user code" of `msw-browser-user.ts`, run
 * in a dedicated worker because auth refuses to run in a page (its key would be public); MSW's
 * service worker hands that worker's requests to this page's handlers. Bundled by
 * `test/msw-browser.test.ts` with the MSW major under test; the page's report lands in
 * `window.mswReport`.
 */
import { createSandbox } from "@drill-practice/sandbox";
import { sandboxHandlers } from "@drill-practice/sandbox/msw";
import { setupWorker } from "msw/browser";
import { describeError } from "../scenario.js";
import type { UserCodeInput, UserCodeReport } from "./msw-browser-user.js";

/** What the page reports to the test. */
export interface MswBrowserReport {
  readonly ok: boolean;
  readonly error?: string;
  readonly sandboxUrl?: string;
  /** Whether a service worker controlled the page once MSW had started. */
  readonly controlled?: boolean;
  /** Discovery fetched by the page itself through the global `fetch`. */
  readonly discovery?: { readonly status: number; readonly tokenEndpoint: string };
  /** What the user code in the dedicated worker saw (the page injected a fault into its search). */
  readonly user?: UserCodeReport;
  /** A request for another origin: MSW must not hand it to the sandbox. */
  readonly elsewhere?: string;
  /** The sandbox's request log (`onRequest` lines). */
  readonly requests?: readonly string[];
  readonly violations?: number;
}

const scope = globalThis as unknown as { mswReport?: MswBrowserReport };

async function main(): Promise<MswBrowserReport> {
  const requests: string[] = [];
  const sandbox = await createSandbox({ validateResponses: true, onRequest: (line) => requests.push(line) });
  const worker = setupWorker(...sandboxHandlers(sandbox));
  await worker.start({
    serviceWorker: { url: "/mockServiceWorker.js" },
    onUnhandledRequest: "bypass",
    quiet: true,
  });
  try {
    const controlled = navigator.serviceWorker.controller !== null;
    const metadata = await fetch(`${sandbox.url}/.well-known/oauth-authorization-server`);
    const discovery = {
      status: metadata.status,
      tokenEndpoint: String(((await metadata.json()) as { token_endpoint?: unknown }).token_endpoint),
    };

    const keyFile = sandbox.credentials.keyFile();
    if (keyFile === undefined) throw new Error("the default dataset has no service account key");
    // One 503 on the user code's search: its client retries and still gets the answer.
    sandbox.injectFault({ operationId: "searchStore_v2_0", status: 503, times: 1, retryAfter: 0 });
    const input: UserCodeInput = {
      baseUrl: sandbox.url,
      clientId: sandbox.credentials.clientId,
      clientSecret: sandbox.credentials.clientSecret,
      keyJson: JSON.stringify(keyFile),
      query: "spanish",
    };
    const user = await new Promise<UserCodeReport>((resolve, reject) => {
      const userWorker = new Worker("/user-code.js");
      userWorker.onmessage = (event: MessageEvent<UserCodeReport>) => resolve(event.data);
      userWorker.onerror = (event) => reject(new Error(`user code worker: ${event.message}`));
      userWorker.postMessage(input);
    });

    const elsewhere = await fetch("https://elsewhere.drill-practice.invalid/").then(
      (response) => `answered ${response.status}`,
      () => "not answered by the sandbox",
    );
    return {
      ok: true,
      sandboxUrl: sandbox.url,
      controlled,
      discovery,
      user,
      elsewhere,
      requests,
      violations: sandbox.responseViolations.length,
    };
  } finally {
    worker.stop();
    await sandbox.close();
  }
}

main().then(
  (report) => {
    scope.mswReport = report;
  },
  (error: unknown) => {
    scope.mswReport = { ok: false, error: describeError(error) };
  },
);
