import { DrillApiError, type DrillOperation } from "./errors.js";

/**
 * The success body type of an openapi-fetch result `{ data, error, response }`.
 *
 * @example
 * ```ts
 * import type { SuccessData } from "@drill-practice/client";
 *
 * type Result = { data: { total: number }; error?: never; response: Response }
 *   | { data?: never; error: { ID: string }; response: Response };
 * type Body = SuccessData<Result>; // { total: number }
 * ```
 */
export type SuccessData<R> = R extends { data: infer D; error?: never } ? D : never;

/**
 * The result shape every openapi-fetch call resolves to.
 */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

// Which operation produced a response, for error messages; weak so that
// responses are collected as usual.
const operations = new WeakMap<Response, DrillOperation>();

/**
 * Remembers which operation produced a non-2xx `response`, for the message of
 * the {@link DrillApiError} that `unwrap` makes of it. The client calls it
 * with the response its caller gets.
 */
export function recordOperation(response: Response, operation: DrillOperation): void {
  operations.set(response, operation);
}

/**
 * Awaits an openapi-fetch call and returns its success body, or throws a
 * {@link DrillApiError} (with status, error `ID`, operation and body) when the
 * status is not 2xx. Network failures and timeouts reject as before.
 *
 * @example
 * ```ts
 * import { createDrillClient, unwrap } from "@drill-practice/client";
 *
 * const client = createDrillClient({ baseUrl: "https://drill.example" });
 * const question = await unwrap(
 *   client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: "d-1" } } }),
 * );
 * console.log(question.question?.ask?.term?.value);
 * ```
 */
export async function unwrap<R extends FetchResult>(result: R | PromiseLike<R>): Promise<SuccessData<R>> {
  return unwrapAs(await result, undefined);
}

/**
 * {@link unwrap} for a settled result, with the operation known up front (used
 * by the throwing client and the paginator).
 */
export function unwrapAs<R extends FetchResult>(
  settled: R,
  operation: DrillOperation | undefined,
): SuccessData<R> {
  const { response } = settled;
  if (response.ok) return settled.data as SuccessData<R>;
  throw new DrillApiError({
    status: response.status,
    body: settled.error,
    operation: operations.get(response) ?? operation ?? fallbackOperation(response),
    response,
  });
}

function fallbackOperation(response: Response): DrillOperation {
  let path = "(unknown path)";
  try {
    path = new URL(response.url).pathname;
  } catch {
    // A constructed Response has no URL.
  }
  return { method: "(unknown method)", path };
}
