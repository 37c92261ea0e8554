/**
 * The caller's own context: the version document, the session (who the token acts for) and the
 * notifications, which the sandbox has none of.
 */
import { PACKAGE } from "../generated/package-info.js";
import type { TokenSession } from "../oauth/access-tokens.js";
import { defineFamily, ok } from "./family.js";

/** The locale every session reports: the dataset has no locales (a sandbox choice). */
const SANDBOX_LOCALE = "en";

function version() {
  return ok({
    sandbox: true,
    name: PACKAGE.name,
    version: PACKAGE.version,
    note: "answered by the local sandbox; the real service's version document is not shown by its interface",
  });
}

function tokenDetails(actor: TokenSession) {
  return {
    organizationId: actor.organizationId,
    serviceAccountId: actor.serviceAccountId,
    tokenId: actor.jti,
    tokenExpiresAt: new Date(actor.expiresAt).toISOString(),
  };
}

/** The session family; see the module comment. */
export const session = defineFamily("session", {
  getVersion_v2_0: {
    behaviour: "names the sandbox (sandbox shape; the real version document is not shown)",
    handle: version,
  },
  getVersion_v2_1: { behaviour: "as `getVersion_v2_0`", handle: version },
  getSession_v2_0: {
    behaviour:
      "the observed 2.0 `Session`: `locale` (always `en`) and the acting `user` (`type`, `id`, `name`), token details under `sandbox`",
    // The 2.0 page's Session: `locale`, and `user` (an actor) when someone is authenticated. The token's
    // details ride along under `sandbox`, an extra field the open object allows.
    handle: ({ actor, state, userId }) => {
      const user = state.user(userId);
      return ok({
        locale: SANDBOX_LOCALE,
        user: { type: "USER", id: userId, ...(user ? { name: user.name } : {}) },
        sandbox: tokenDetails(actor),
      });
    },
  },
  getSession_v2_1: {
    behaviour: "the acting user and token (sandbox shape: the 2.1 session's `login` object is not shown)",
    handle: ({ actor, state, userId }) => {
      const user = state.user(userId);
      return ok({
        sandbox: true,
        user: { id: userId, ...(user ? { name: user.name } : {}) },
        ...tokenDetails(actor),
      });
    },
  },
  listNotifications_v2_1: {
    behaviour: "always an empty list: the sandbox has no notifications",
    handle: () => ok([]),
  },
});
