/**
 * The acting user's repertoire: the drills and courses they keep, listed as a `Drillables` page (2.0
 * pages with `resultStart`/`resultSize`), added and removed by ID. The 2.0 and 2.1.1 GET repertoire
 * pages say it holds every drill or course the user (co-)authored, took from the store or received as a
 * group member: the first and the last are held without being added (`SandboxState.heldInRepertoire`).
 * The 2.0 PUT and DELETE repertoire pages address the drill at `/api/2/repertoire/{drill_id}`, which the
 * interface's 2.0 path lacks: those operations stand beside the interface's (observed, in the spec).
 */

import type { SandboxState } from "../domain/state.js";
import { parsePaging, parseQuery } from "../domain/store-search.js";
import { fieldTexts, tokenize } from "../domain/text-tokens.js";
import type { DrillableRecord, Drillables, SearchField } from "../domain/types.js";
import { defineFamily, ok, type ResourceRequest, refuse } from "./family.js";

/** The field names the 2.0 GET repertoire page gives `searchField` (the 2.1.1 page's list is cut). */
const SEARCH_FIELDS: readonly SearchField[] = ["NAME", "DESCRIPTION", "SUBJECT", "TAGS", "CONTENTS"];

/** The observed answer of adding is a message (`Message`); its wording is the sandbox's. */
const ADDED = { description: "Added to repertoire" };

function addToRepertoire({
  path,
  state,
  userId,
}: ResourceRequest<"addToRepertoire_v2_1"> | ResourceRequest<"addToRepertoire_v2_1_1">) {
  state.addToRepertoire(userId, path.drillable);
  return ok(ADDED);
}

interface RepertoireSearch {
  readonly query?: string | undefined;
  readonly searchField?: readonly string[] | undefined;
  readonly resultStart?: string | undefined;
  readonly resultSize?: string | undefined;
}

function searchFields(values: readonly string[] | undefined): readonly SearchField[] {
  if (values === undefined || values.length === 0) return SEARCH_FIELDS;
  return values.map(
    (value) =>
      SEARCH_FIELDS.find((f) => f === value) ??
      refuse(
        { kind: "invalid", field: "searchField" },
        `query parameter "searchField": ${JSON.stringify(value)} is none of ${SEARCH_FIELDS.join(", ")}`,
        "searchField",
      ),
  );
}

/** Whether a record has every word of one of the query's groups in the fields searched. */
function matches(record: DrillableRecord, query: string, fields: readonly SearchField[]): boolean {
  const parsed = parseQuery(query);
  if (parsed.words.length === 0) return true;
  const tokens = new Set(fields.flatMap((f) => fieldTexts(record, f).flatMap(tokenize)));
  const has = (at: number) => parsed.words[at]?.tokens.every((t) => tokens.has(t)) === true;
  return parsed.groups.some((group) => group.every(has));
}

/**
 * The repertoire, searched by `query` (words as the store's search reads them: any word matches,
 * `AND` requires both) in the `searchField`s given (all by default), in name order, then paged.
 */
function searchRepertoire(state: SandboxState, userId: string, search: RepertoireSearch): Drillables {
  const fields = searchFields(search.searchField);
  const { start, size } = parsePaging(search.resultStart, search.resultSize);
  const all = state.listRepertoire(userId).drills;
  const query = search.query?.trim() ?? "";
  const found = all.filter((d) => {
    const record = state.drillable(d.id);
    return record !== undefined && (query === "" || matches(record, query, fields));
  });
  return { total: found.length, drills: found.slice(start, start + size) };
}

/**
 * The 2.0 page's `drill_is_yours` and `drill_is_part_of_group`: what the user holds without adding.
 * `parameter` is the path parameter naming the drill (`drillable` in 2.1, `drill_id` on the 2.0 page).
 */
function refuseHeld(state: SandboxState, userId: string, id: string, parameter: string): void {
  if (state.content.authorOf(id) === userId)
    refuse(
      { kind: "named", id: "drill_is_yours" },
      `${JSON.stringify(id)} is the acting user's own: delete it instead`,
      parameter,
    );
  if (state.heldInRepertoire(userId).includes(id))
    refuse(
      { kind: "named", id: "drill_is_part_of_group" },
      `${JSON.stringify(id)} comes with a group the acting user is a member of`,
      parameter,
    );
}

/**
 * The 2.0 PUT repertoire page at its own path: `invalid_id` for an ID that names no drill or course
 * the user may take, `drill_already_in_repertoire` for one the repertoire holds already (added,
 * authored or a group's), else added with the page's message.
 */
function addByDrillId({ path, state, userId }: ResourceRequest<"addToRepertoireByDrillId_v2_0">) {
  const id = path.drill_id;
  const record = state.drillable(id);
  if (record === undefined || !state.canAccess(userId, record))
    refuse(
      { kind: "named", id: "invalid_id" },
      `drill_id: ${JSON.stringify(id)} is no drill or course the acting user may take`,
      "drill_id",
    );
  if (state.inRepertoire(userId, id))
    refuse(
      { kind: "named", id: "drill_already_in_repertoire" },
      `drill_id: ${JSON.stringify(id)} is in the acting user's repertoire already`,
      "drill_id",
    );
  state.addToRepertoire(userId, id);
  return ok(ADDED);
}

/**
 * The 2.0 DELETE repertoire page at its own path: `unknown_drill` for one not in the repertoire, the
 * user's own and a group's refused as in 2.1, else removed with its progress, answering `{}`.
 */
function removeByDrillId({ path, state, userId }: ResourceRequest<"removeFromRepertoireByDrillId_v2_0">) {
  const id = path.drill_id;
  if (!state.inRepertoire(userId, id))
    refuse(
      { kind: "named", id: "unknown_drill" },
      `drill_id: ${JSON.stringify(id)} does not appear in the acting user's repertoire`,
      "drill_id",
    );
  refuseHeld(state, userId, id, "drill_id");
  state.removeFromRepertoire(userId, id);
  return ok({});
}

const SEARCH_BEHAVIOUR =
  "the acting user's repertoire (the drills and courses they added, authored or received through a group they are a member of: the GET repertoire pages) as a `Drillables` page by name; `query` searches words as the store search does (case-insensitive, any word, `AND` for all; the page) in the `searchField`s given (the 2.0 page's NAME, DESCRIPTION, SUBJECT, TAGS, CONTENTS; another value is `invalid_search_field`, a sandbox choice as the 2.1.1 list of values is cut), paged by `resultStart`/`resultSize`; `sortField` and `sortDirection` are taken but not applied, as their values are cut from the page; each entry carries its `practice` (the 2.0 Drillable page: present for a drill in the repertoire)";

/** The repertoire family; see the module comment. */
export const repertoire = defineFamily("repertoire", {
  listRepertoire_v2_0: {
    behaviour: `${SEARCH_BEHAVIOUR} (the 2.0 page shows the parameters up to \`sortField\`; its answer is cut: the sandbox answers a \`Drillables\` page)`,
    handle: ({ query, state, userId }) => ok(searchRepertoire(state, userId, query)),
  },
  listRepertoire_v2_1: {
    behaviour: `${SEARCH_BEHAVIOUR} (the 2.1.1 page of the same path shows the parameters; the answer is cut, so the sandbox answers the 2.0 shape)`,
    handle: ({ query, state, userId }) => ok(searchRepertoire(state, userId, query)),
  },
  addToRepertoire_v2_1: {
    behaviour:
      "adds the drill or course to the repertoire and answers the observed `Message` (200, also when it was there already, or held as the user's own or a group's)",
    handle: addToRepertoire,
  },
  listRepertoire_v2_1_1: {
    behaviour: `${SEARCH_BEHAVIOUR} (the answer is cut from the page: the sandbox answers the 2.0 shape)`,
    handle: ({ query, state, userId }) => ok(searchRepertoire(state, userId, query)),
  },
  addToRepertoire_v2_1_1: {
    behaviour: "as `addToRepertoire_v2_1` (no payments or storage limits in the sandbox)",
    handle: addToRepertoire,
  },
  removeFromRepertoire_v2_1: {
    behaviour:
      "removes a drill or course the user added, with their progress on it (as the 2.0 DELETE repertoire page says), and answers `{}` (200; the 2.1 answer is not shown, the 2.0 page shows an empty object); `not_in_repertoire` (404) for one not in it; the user's own is `drill_is_yours` and a group's `drill_is_part_of_group` (400; the 2.0 DELETE repertoire page's rule, applied to 2.1 as the sandbox's choice: no 2.1 page was found)",
    handle: ({ path, state, userId }) => {
      refuseHeld(state, userId, path.drillable, "drillable");
      state.removeFromRepertoire(userId, path.drillable);
      // The description promises JSON; the body is the empty object the 2.0 page shows.
      return ok({});
    },
  },
  addToRepertoire_v2_0: {
    behaviour:
      "answers `no_input` (400) and changes nothing: the 2.0 PUT repertoire page names the drill in a further path segment, which the interface's path does not have, so no request to it names one (the page: `no_input`, \"must supply drill or course ID\"); the page's path is `addToRepertoireByDrillId_v2_0`",
    handle: () =>
      refuse(
        { kind: "named", id: "no_input" },
        "the drill or course ID goes in a further path segment, which this path does not have",
      ),
  },
  removeFromRepertoire_v2_0: {
    behaviour:
      "answers `drill_id_missing` (400) and changes nothing: the 2.0 DELETE repertoire page names the drill in a further path segment, which the interface's path does not have, so no request to it names one; the page's path is `removeFromRepertoireByDrillId_v2_0`",
    handle: () =>
      refuse(
        { kind: "named", id: "drill_id_missing" },
        "the drill or course ID goes in a further path segment, which this path does not have",
      ),
  },
  addToRepertoireByDrillId_v2_0: {
    behaviour:
      "the 2.0 PUT repertoire page's path (an observed operation beside `addToRepertoire_v2_0`): adds a drill or course the acting user may take (in the store, a catalog or a group of theirs) and answers a message (200); `invalid_id` for any other ID and `drill_already_in_repertoire` for one the repertoire holds already, added, authored or a group's (400; the page gives no codes); no payments or storage limits in the sandbox, so `payment_required` and the other payment errors and `limit_reached` never occur, nor `available_in_course_only` (the sandbox sells no drill as part of a course only)",
    handle: addByDrillId,
  },
  removeFromRepertoireByDrillId_v2_0: {
    behaviour:
      "the 2.0 DELETE repertoire page's path (an observed operation beside `removeFromRepertoire_v2_0`): removes a drill or course the acting user added, with their progress on it, and answers `{}` (200); `unknown_drill` (404) for one not in the repertoire, `drill_is_yours` for the user's own, `drill_is_part_of_group` for a group's (400; the page gives no codes); `drill_is_part_of_test` and `drill_is_part_of_objective` are not answered, as the page does not say whose test or objective would hold the drill",
    handle: removeByDrillId,
  },
});
