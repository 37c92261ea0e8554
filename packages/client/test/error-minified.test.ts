/**
 * Errors of two installed copies of the package, bundled by a minifier that
 * renames every class: `name` and `code` stay what the classes state, and
 * `instanceof` matches by code across the copies, never a class of another code.
 */
import { describeMinifiedErrors } from "@drill-practice/tooling/minified-errors";

const consumer = `import * as a from "./a.js";
import * as b from "./b.js";
const client = a.createDrillClient({
  baseUrl: "https://drill.example",
  throwOnError: true,
  retry: { maxAttempts: 1 },
  fetch: async () => new Response(JSON.stringify({ id: "query_missing", description: "a search needs a query" }), {
    status: 400,
    headers: { "content-type": "application/json" },
  }),
});
const fromA = await client.GET("/api/2/store", { params: { query: {} } }).then(() => undefined, (error) => error);
const timeoutA = new a.DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://x" });
console.log(JSON.stringify({
  renamed: a.DrillApiError.name !== "DrillApiError" && a.DrillApiError !== b.DrillApiError,
  name: fromA.name,
  code: fromA.code,
  staticCode: [a.DrillApiError.code, b.DrillApiError.code],
  status: fromA.status,
  sameCopy: fromA instanceof a.DrillApiError,
  otherCopy: fromA instanceof b.DrillApiError,
  baseOtherCopy: fromA instanceof b.DrillError,
  otherClass: [fromA instanceof b.DrillTimeoutError, fromA instanceof b.DrillNetworkError, timeoutA instanceof b.DrillApiError],
  timeout: [timeoutA.name, timeoutA.code, timeoutA instanceof b.DrillTimeoutError],
  lookalike: Object.assign(new Error("x"), { code: "ERR_API" }) instanceof b.DrillApiError,
}));
`;

describeMinifiedErrors({
  packageDir: new URL("..", import.meta.url),
  consumer,
  renamedClass: "DrillApiError",
  expected: {
    renamed: true,
    name: "DrillApiError",
    code: "ERR_API",
    staticCode: ["ERR_API", "ERR_API"],
    status: 400,
    sameCopy: true,
    otherCopy: true,
    baseOtherCopy: true,
    otherClass: [false, false, false],
    timeout: ["DrillTimeoutError", "ERR_TIMEOUT", true],
    lookalike: false,
  },
});
