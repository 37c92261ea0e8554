/**
 * A Cloudflare Worker (module syntax), run by workerd through Miniflare with no compatibility
 * flag. The key arrives as JSON text in a binding, and the platform's own `fetch` is passed
 * explicitly to auth and client: workerd rejects `fetch` called as a method of another object.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { runtimeName } from "../runtime-name.js";
import { runScenario, type ScenarioInput } from "../scenario.js";

interface Env {
  readonly MATRIX_INPUT: string;
}

export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const input = JSON.parse(env.MATRIX_INPUT) as ScenarioInput;
    const platformFetch = globalThis.fetch;
    const report = await runScenario(
      runtimeName(),
      input,
      () =>
        serviceAccountAuth({
          key: input.keyJson,
          clientId: input.clientId,
          clientSecret: input.clientSecret,
          fetch: platformFetch,
        }),
      { fetch: platformFetch },
    );
    return new Response(JSON.stringify(report), { headers: { "content-type": "application/json" } });
  },
};
