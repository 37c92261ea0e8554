/**
 * The acting user's repertoire: the drills and courses they keep, listed as a `Drillables` page (2.0
 * pages with `resultStart`/`resultSize`), added and removed by ID. The 2.0 and 2.1.1 GET repertoire
 * pages say it holds every drill or course the user (co-)authored, took from the store or received as a
 * group member: the first and the last are held without being added (`SandboxState.heldInRepertoire`).
 */

import type { SandboxState } from "../domain/state.js";
import { parsePaging, parseQuery } from "../domain/store-search.js";
import { fieldTexts, tokenize } from "../domain/text-tokens.js";
import type { DrillableRecord, Drillables, SearchField } from "../domain/types.js";
import { defineFamily, ok, type ResourceRequest, refuse } from "./family.js";

/** The field names the 2.0 GET repertoire page gives `searchField` (the 2.1.1 page's list is cut). */
const SEARCH_FIELDS: readonly SearchField[] = ["NAME", "DESCRIPTION", "SUBJECT", "TAGS", "CONTENTS"];

function addToRepertoire({
  path,
  state,
  userId,
}: ResourceRequest<"addToRepertoire_v2_1"> | ResourceRequest<"addToRepertoire_v2_1_1">) {
  state.addToRepertoire(userId, path.drillable);
  // The observed answer is a message (`Message`); its wording is the sandbox's.
  return ok({ description: "Added to repertoire" });
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

/** The 2.0 page's `drill_is_yours` and `drill_is_part_of_group`: what the user holds without adding. */
function refuseHeld(state: SandboxState, userId: string, id: string): void {
  if (state.content.authorOf(id) === userId)
    refuse(
      { kind: "named", id: "drill_is_yours" },
      `${JSON.stringify(id)} is the acting user's own: delete it instead`,
      "drillable",
    );
  if (state.heldInRepertoire(userId).includes(id))
    refuse(
      { kind: "named", id: "drill_is_part_of_group" },
      `${JSON.stringify(id)} comes with a group the acting user is a member of`,
      "drillable",
    );
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
      "removes a drill or course the user added and answers `{}` (200; the 2.1 answer is not shown, the 2.0 page shows an empty object); `not_in_repertoire` (404) for one not in it; the user's own is `drill_is_yours` and a group's `drill_is_part_of_group` (400; the 2.0 DELETE repertoire page's rule, applied to 2.1 as the sandbox's choice: no 2.1 page was found)",
    handle: ({ path, state, userId }) => {
      refuseHeld(state, userId, path.drillable);
      state.removeFromRepertoire(userId, path.drillable);
      // The description promises JSON; the body is the empty object the 2.0 page shows.
      return ok({});
    },
  },
  addToRepertoire_v2_0: {
    behaviour:
      'answers `no_input` (400) and changes nothing: the 2.0 PUT repertoire page names the drill in a further path segment (`/api/2/repertoire/{drill_id}`), which the interface\'s path does not have, so no request to it names one (the page: `no_input`, "must supply drill or course ID")',
    handle: () =>
      refuse(
        { kind: "named", id: "no_input" },
        "the drill or course ID goes in a further path segment, which this path does not have",
      ),
  },
  removeFromRepertoire_v2_0: {
    behaviour:
      "answers `drill_id_missing` (400) and changes nothing: the 2.0 DELETE repertoire page names the drill in a further path segment (`/api/2/repertoire/{drill_id}`), which the interface's path does not have, so no request to it names one; use `removeFromRepertoire_v2_1` to remove",
    handle: () =>
      refuse(
        { kind: "named", id: "drill_id_missing" },
        "the drill or course ID goes in a further path segment, which this path does not have",
      ),
  },
});
