/**
 * "User code" for the MSW check in Chromium: auth and client given no `fetch`, so every request goes
 * through the global `fetch` of a dedicated worker, which MSW's service worker (started by
 * `msw-browser-page.ts`) answers with the page's in-process sandbox. Reports what it saw, never the
 * token.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, unwrap } from "@drill-practice/client";
import { describeError } from "../scenario.js";

export interface UserCodeInput {
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly keyJson: string;
  readonly query: string;
}

export type UserCodeReport =
  | {
      readonly ok: true;
      readonly tokenType: string;
      readonly total: number;
      readonly ids: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

interface WorkerScope {
  addEventListener(type: "message", listener: (event: { readonly data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

async function run(input: UserCodeInput): Promise<UserCodeReport> {
  try {
    const auth = serviceAccountAuth({
      key: input.keyJson,
      clientId: input.clientId,
      clientSecret: input.clientSecret,
    });
    const client = createDrillClient({ baseUrl: input.baseUrl, auth });
    const token = await auth.getToken();
    // The page programmed one 503 for this search: the client's retry gets the answer.
    const page = await unwrap(
      client.GET("/api/2/store", {
        params: { query: { query: input.query, searchField: ["NAME", "TAGS"], resultSize: "5" } },
      }),
    );
    return {
      ok: true,
      tokenType: token.tokenType,
      total: page.total,
      ids: page.drills.map((drill) => drill.id),
    };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

const scope = globalThis as unknown as WorkerScope;
scope.addEventListener("message", (event) => {
  void run(event.data as UserCodeInput).then((report) => scope.postMessage(report));
});
