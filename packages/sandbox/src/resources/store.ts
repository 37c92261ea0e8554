/**
 * The public store's search, the same in both versions: the domain's search (src/domain/store-search.ts)
 * over the typed query parameters.
 */
import { defineFamily, ok, type ResourceRequest } from "./family.js";

function search({
  query,
  state,
  userId,
}: ResourceRequest<"searchStore_v2_0"> | ResourceRequest<"searchStore_v2_1">) {
  return ok(state.searchStore(userId, query));
}

/** The store family; see the module comment. */
export const store = defineFamily("store", {
  searchStore_v2_0: { behaviour: "store search (query, AND, searchField, catalog, paging)", handle: search },
  searchStore_v2_1: { behaviour: "store search, identical to 2.0", handle: search },
});
