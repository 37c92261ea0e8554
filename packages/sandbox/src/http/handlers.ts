/**
 * The simulated operations: each wires an operation of the description to the domain layer. Every
 * other operation answers 501 `not_simulated`, because the interface does not give its shapes and the
 * sandbox does not invent them.
 */
import type { SandboxState } from "../domain/state.js";
import { DomainError } from "../errors.js";
import { PACKAGE } from "../generated/package-info.js";
import { familyBehaviours, familyHandlers } from "../resources/family.js";
import { type FamilyOperationId, RESOURCE_FAMILIES } from "../resources/index.js";
import type { OperationHandler, OperationRequest } from "./operation-handler.js";
import type { Reply } from "./replies.js";

/** The operations answered by the code below (not by a resource family). */
const CORE_OPERATIONS = {
  getAuthorizationServerMetadata:
    "discovery document with `token_endpoint` and `issuer`, built from the request's Host",
  exchangeToken:
    "JWT bearer grant: checks client credentials and every assertion rule, issues an opaque token",
  searchStore_v2_0: "store search (query, AND, searchField, catalog, paging)",
  searchStore_v2_1: "store search, identical to 2.0",
  getQuestion_v2_0: "next question for the path drill plus any `drill` query parameters",
  getQuestions_v2_0: "next question for the `drill` query parameters; none given answers 400 `drill_missing`",
  getQuestion_v2_1: "as `getQuestion_v2_0`",
  submitAnswer_v2_0:
    "evaluates the form field `answer` (repeatable) and answers the observed 2.0 `AnswerResponse` (`evaluation`, `proficiency`)",
  submitAnswer_v2_1: "as `submitAnswer_v2_0` (the 2.1 shapes are not shown; the sandbox uses the 2.0 ones)",
  getRendition_v2_1: "the acting user's practice status for a drill or course (sandbox shape)",
  listRepertoire_v2_0: "the acting user's repertoire as a `Drillables` page",
  listRepertoire_v2_1: "as `listRepertoire_v2_0`",
  addToRepertoire_v2_1:
    "adds the drill or course to the repertoire and answers the observed `Message` (200, also when it was there already)",
  removeFromRepertoire_v2_1:
    "removes it and answers `{}` (200; the 2.1 answer is not shown, the 2.0 page shows an empty object)",
  getVersion_v2_0: "names the sandbox (sandbox shape; the real version document is not shown)",
  getVersion_v2_1: "as `getVersion_v2_0`",
  getSession_v2_0:
    "the observed 2.0 `Session`: `locale` (always `en`) and the acting `user` (`type`, `id`, `name`), token details under `sandbox`",
  getSession_v2_1: "the acting user and token (sandbox shape: the 2.1 session's `login` object is not shown)",
  listNotifications_v2_1: "always an empty list: the sandbox has no notifications",
} as const satisfies Record<string, string>;

/**
 * What each simulated operation does in the sandbox, by operationId. The package README's list is
 * generated from this table (`pnpm --filter @drill-practice/sandbox readme:operations`) and a test
 * checks that the two agree.
 *
 * @example
 * ```ts
 * import { SIMULATED_OPERATIONS } from "@drill-practice/sandbox";
 *
 * // Operations answered from state (the others answer their reference page's example).
 * for (const [operationId, behaviour] of Object.entries(SIMULATED_OPERATIONS)) {
 *   console.log(`${operationId}: ${behaviour}`);
 * }
 * ```
 */
export const SIMULATED_OPERATIONS = {
  ...CORE_OPERATIONS,
  ...(familyBehaviours(RESOURCE_FAMILIES) as { readonly [Id in FamilyOperationId]: string }),
};

/**
 * The operationId of a simulated operation (public through the package's entries, unused inside).
 *
 * @public
 * @example
 * ```ts
 * import { SIMULATED_OPERATIONS, type SimulatedOperationId } from "@drill-practice/sandbox";
 *
 * const id: SimulatedOperationId = "getQuestion_v2_1";
 * console.log(SIMULATED_OPERATIONS[id]); // what the sandbox does for it
 * ```
 */
export type SimulatedOperationId = keyof typeof SIMULATED_OPERATIONS;

/** The locale every session reports: the dataset has no locales (a sandbox choice). */
const SANDBOX_LOCALE = "en";

function ok(body: unknown, status = 200): Reply {
  return { status, body };
}

/** Runs domain code and turns its refusals into error replies with the domain's ID and status. */
function domain(run: () => Reply): Reply {
  try {
    return run();
  } catch (error) {
    if (error instanceof DomainError) return { status: error.status, body: error.toResponseBody() };
    throw error;
  }
}

function userOf(request: OperationRequest): string {
  // Every simulated API operation requires a token, so the pipeline has always set the actor here.
  if (!request.actor) throw new Error(`${request.operation.operationId} reached its handler without a token`);
  return request.actor.userId;
}

function stringParam(bag: Record<string, unknown>, name: string): string | undefined {
  const value = bag[name];
  return typeof value === "string" ? value : undefined;
}

/** `resultStart`/`resultSize` as the validator left them (numbers, or strings where it does not convert). */
function pagingOf(bag: Record<string, unknown>): {
  resultStart?: string | number;
  resultSize?: string | number;
} {
  const pick = (name: string) => {
    const value = bag[name];
    return typeof value === "string" || typeof value === "number" ? { [name]: value } : {};
  };
  return { ...pick("resultStart"), ...pick("resultSize") };
}

function stringList(bag: Record<string, unknown>, name: string): string[] {
  const value = bag[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Builds the handler table of one sandbox.
 *
 * @example
 * ```ts
 * import { defaultDataset } from "../data/default-dataset.js";
 * import { createState } from "../domain/state.js";
 * import { createHandlers } from "./handlers.js";
 *
 * const state = createState(await defaultDataset());
 * const handlers = createHandlers(state);
 * handlers.get("listNotifications_v2_1");
 * ```
 */
export function createHandlers(state: SandboxState): Map<string, OperationHandler> {
  const search: OperationHandler = (r) =>
    domain(() => {
      const q = r.params.query;
      return ok(
        state.searchStore(userOf(r), {
          query: stringParam(q, "query"),
          searchField: q.searchField === undefined ? undefined : stringList(q, "searchField"),
          catalog: stringParam(q, "catalog"),
          resultStart: stringParam(q, "resultStart"),
          resultSize: stringParam(q, "resultSize"),
        }),
      );
    });
  const question =
    (pathParam: string | undefined): OperationHandler =>
    (r) =>
      domain(() => {
        const fromPath = pathParam === undefined ? undefined : stringParam(r.params.path, pathParam);
        const drills = [
          ...(fromPath === undefined ? [] : [fromPath]),
          ...stringList(r.params.query, "drill"),
        ];
        return ok(state.nextQuestion(userOf(r), drills));
      });
  const answer: OperationHandler = (r) =>
    domain(() => ok(state.answer(userOf(r), stringParam(r.params.path, "reference") ?? "", r.body)));
  const repertoire: OperationHandler = (r) =>
    domain(() => ok(state.listRepertoire(userOf(r), pagingOf(r.params.query))));
  const version: OperationHandler = () =>
    ok({
      sandbox: true,
      name: PACKAGE.name,
      version: PACKAGE.version,
      note: "answered by the local sandbox; the real service's version document is not shown by its interface",
    });
  const tokenDetails = (actor: NonNullable<OperationRequest["actor"]>) => ({
    organizationId: actor.organizationId,
    serviceAccountId: actor.serviceAccountId,
    tokenId: actor.jti,
    tokenExpiresAt: new Date(actor.expiresAt).toISOString(),
  });
  const session: OperationHandler = (r) => {
    const actor = r.actor;
    if (!actor) throw new Error("session reached its handler without a token");
    const user = state.user(actor.userId);
    return ok({
      sandbox: true,
      user: { id: actor.userId, ...(user ? { name: user.name } : {}) },
      ...tokenDetails(actor),
    });
  };
  // The 2.0 page's Session: `locale`, and `user` (an actor) when someone is authenticated. The token's
  // details ride along under `sandbox`, an extra field the open object allows.
  const session20: OperationHandler = (r) => {
    const actor = r.actor;
    if (!actor) throw new Error("session reached its handler without a token");
    const user = state.user(actor.userId);
    return ok({
      locale: SANDBOX_LOCALE,
      user: { type: "USER", id: actor.userId, ...(user ? { name: user.name } : {}) },
      sandbox: tokenDetails(actor),
    });
  };

  const table: Record<
    Exclude<keyof typeof CORE_OPERATIONS, "exchangeToken" | "getAuthorizationServerMetadata">,
    OperationHandler
  > = {
    searchStore_v2_0: search,
    searchStore_v2_1: search,
    getQuestion_v2_0: question("drill_id"),
    getQuestions_v2_0: question(undefined),
    getQuestion_v2_1: question("drill"),
    submitAnswer_v2_0: answer,
    submitAnswer_v2_1: answer,
    getRendition_v2_1: (r) =>
      domain(() => ok(state.getRendition(userOf(r), stringParam(r.params.path, "drillable") ?? ""))),
    listRepertoire_v2_0: repertoire,
    listRepertoire_v2_1: repertoire,
    addToRepertoire_v2_1: (r) =>
      domain(() => {
        state.addToRepertoire(userOf(r), stringParam(r.params.path, "drillable") ?? "");
        // The observed answer is a message (`Message`); its wording is the sandbox's.
        return ok({ description: "Added to repertoire" });
      }),
    removeFromRepertoire_v2_1: (r) =>
      domain(() => {
        state.removeFromRepertoire(userOf(r), stringParam(r.params.path, "drillable") ?? "");
        // The description promises JSON; the body is the empty object the 2.0 page shows.
        return ok({});
      }),
    getVersion_v2_0: version,
    getVersion_v2_1: version,
    getSession_v2_0: session20,
    getSession_v2_1: session,
    listNotifications_v2_1: () => ok([]),
  };
  return new Map([...Object.entries(table), ...familyHandlers(RESOURCE_FAMILIES, state)]);
}
