/**
 * A Cloudflare Worker (module syntax), in-process case: the sandbox runs inside the Worker's request,
 * made by `createSandbox` from the bundle of the sandbox's Web entry (no compatibility flag, so no
 * Node built-in and no `new Function`). The input arrives as JSON text in a binding.
 */
import { runInProcessScenario } from "../in-process-scenario.js";
import { runtimeName } from "../runtime-name.js";

interface Env {
  readonly MATRIX_INPUT: string;
}

export default {
  async fetch(_request: Request, env: Env): Promise<Response> {
    const report = await runInProcessScenario(runtimeName(), JSON.parse(env.MATRIX_INPUT));
    return new Response(JSON.stringify(report), { headers: { "content-type": "application/json" } });
  },
};
