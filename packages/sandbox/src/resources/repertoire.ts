/**
 * The acting user's repertoire: the drills and courses they keep, listed as a `Drillables` page (2.0
 * pages with `resultStart`/`resultSize`), added and removed by ID.
 */
import { defineFamily, ok, type ResourceRequest } from "./family.js";

function addToRepertoire({
  path,
  state,
  userId,
}: ResourceRequest<"addToRepertoire_v2_1"> | ResourceRequest<"addToRepertoire_v2_1_1">) {
  state.addToRepertoire(userId, path.drillable);
  // The observed answer is a message (`Message`); its wording is the sandbox's.
  return ok({ description: "Added to repertoire" });
}

/** The repertoire family; see the module comment. */
export const repertoire = defineFamily("repertoire", {
  listRepertoire_v2_0: {
    behaviour: "the acting user's repertoire as a `Drillables` page",
    handle: ({ query, state, userId }) => ok(state.listRepertoire(userId, query)),
  },
  listRepertoire_v2_1: {
    behaviour: "as `listRepertoire_v2_0`",
    handle: ({ state, userId }) => ok(state.listRepertoire(userId)),
  },
  addToRepertoire_v2_1: {
    behaviour:
      "adds the drill or course to the repertoire and answers the observed `Message` (200, also when it was there already)",
    handle: addToRepertoire,
  },
  listRepertoire_v2_1_1: {
    behaviour:
      "the acting user's repertoire as a `Drillables` page by name, paged by `resultStart`/`resultSize` (the answer is cut from the page: the sandbox answers the 2.0 shape); `query`, `searchField`, `sortField` and `sortDirection` are taken but not applied, as their values are cut from the page",
    handle: ({ query, state, userId }) =>
      ok(state.listRepertoire(userId, { resultStart: query.resultStart, resultSize: query.resultSize })),
  },
  addToRepertoire_v2_1_1: {
    behaviour: "as `addToRepertoire_v2_1` (no payments or storage limits in the sandbox)",
    handle: addToRepertoire,
  },
  removeFromRepertoire_v2_1: {
    behaviour:
      "removes it and answers `{}` (200; the 2.1 answer is not shown, the 2.0 page shows an empty object)",
    handle: ({ path, state, userId }) => {
      state.removeFromRepertoire(userId, path.drillable);
      // The description promises JSON; the body is the empty object the 2.0 page shows.
      return ok({});
    },
  },
});
