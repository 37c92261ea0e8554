/**
 * The devices family: beacons of an organization (which playable a beacon triggers), client apps a
 * user registers, and devices registered for push notifications. Beacons belong to the organization the
 * acting user is staff of: any permission reads them, MANAGE stores and deletes them.
 */
import type { BeaconRecord, ClientAppRecord } from "../domain/assessment.js";
import type { SandboxState } from "../domain/state.js";
import { actorV20, actorV21, addressedUser } from "./actors.js";
import { type BodyOf, defineFamily, ok, type ResourceRequest, refuse } from "./family.js";
import { refuseImageKeys } from "./images.js";

type Body = Readonly<Record<string, unknown>> | undefined;

/** The fixed UUID of beacon IDs, then the major and minor values in hex (the Beacon object page). */
const BEACON_ID = /^07212ead-8344-4426-8b41-8b0cb621625a_[0-9a-f]{4}_[0-9a-f]{4}$/i;
const PLATFORMS = ["ANDROID", "IOS"];

function beaconOrganization(state: SandboxState, userId: string, need: "MANAGE" | "VIEW") {
  const organization = state.org.organizations.all().find((o) => {
    const held = state.org.organizationPermission(userId, o.id);
    return held === "MANAGE" || (need === "VIEW" && held === "VIEW");
  });
  return (
    organization ??
    refuse(
      { kind: "no_permission" },
      `the acting user ${JSON.stringify(userId)} needs ${need} permission on an organization to ${need === "MANAGE" ? "change" : "read"} its beacons`,
    )
  );
}

function beaconId(id: string): string {
  if (!BEACON_ID.test(id)) {
    refuse(
      { kind: "invalid", field: "id" },
      "beacon: 07212ead-8344-4426-8b41-8b0cb621625a_<major in 4 hex digits>_<minor in 4 hex digits>",
      "beacon",
    );
  }
  return id.toLowerCase();
}

function playableOf(state: SandboxState, type: string, id: string) {
  if (type === "TEST") {
    const test = state.assessment.tests.get(id);
    return test ? { type, id: test.id, name: test.name, icon: {} } : undefined;
  }
  const record = state.drillable(id);
  return record?.type === type ? { type, id: record.id, name: record.name, icon: {} } : undefined;
}

function beaconV21(state: SandboxState, beacon: BeaconRecord) {
  const playable = playableOf(state, beacon.playableType, beacon.playableId);
  return {
    id: beacon.id,
    proximity: beacon.proximity,
    lingerDuration: beacon.lingerDuration,
    ...(beacon.description === undefined ? {} : { description: beacon.description }),
    ...(playable === undefined ? {} : { playable }),
  };
}

function beaconFor(state: SandboxState, userId: string, id: string) {
  const organization = beaconOrganization(state, userId, "VIEW");
  const beacon = state.assessment.beacons.get(beaconId(id));
  if (beacon === undefined || beacon.organizationId !== organization.id) {
    return refuse(
      { kind: "not_found", resource: "beacon" },
      `beacon: no beacon ${JSON.stringify(id)}`,
      "beacon",
    );
  }
  return beacon;
}

/**
 * A client app's status: the description's ClientApp (from the ClientApp object pages) says new
 * applications start `EXPERIMENTAL`, and the sandbox has no way to make one `OFFICIAL`.
 */
const NEW_APP_STATUS = "EXPERIMENTAL";

function clientAppV20(state: SandboxState, app: ClientAppRecord, withSecret: boolean) {
  const creator = state.user(app.creatorId);
  return {
    id: app.id,
    name: app.name,
    description: app.description,
    ...(withSecret ? { secret: app.secret } : {}),
    ...(creator === undefined ? {} : { creator: actorV20(creator) }),
    created: app.created,
    status: NEW_APP_STATUS,
    redirectionEndpoint: app.redirectionEndpoint,
    ...(app.url === undefined ? {} : { url: app.url }),
  };
}

/** A client app in 2.1 answers (the 2.1.1 ClientApp object page's fields: those of 2.0, a 2.1 creator). */
function clientAppV21(state: SandboxState, app: ClientAppRecord, withSecret: boolean) {
  const creator = state.user(app.creatorId);
  return {
    ...clientAppV20(state, app, withSecret),
    ...(creator === undefined ? {} : { creator: actorV21(creator) }),
  };
}

function ownApp(state: SandboxState, userId: string, id: string): ClientAppRecord {
  const app = state.assessment.clientApps.get(id);
  if (app === undefined || app.creatorId !== userId) {
    return refuse(
      { kind: "not_found", resource: "client_app" },
      `client: no client app ${JSON.stringify(id)} of the acting user`,
      "client",
    );
  }
  return app;
}

/**
 * The client app a 2.0 path addresses: the 2.0 path names none, so it is the acting user's only one;
 * with several the sandbox cannot tell which is meant (`client_missing`).
 */
function onlyOwnApp(state: SandboxState, userId: string): ClientAppRecord {
  const own = state.assessment.clientApps.all().filter((a) => a.creatorId === userId);
  const [app] = own;
  if (own.length === 1 && app !== undefined) return app;
  if (own.length === 0) {
    return refuse(
      { kind: "not_found", resource: "client_app" },
      "the acting user has registered no client app",
    );
  }
  return refuse(
    { kind: "missing", field: "client" },
    `the acting user has ${own.length} client apps and the 2.0 path names none: use /api/2.1/client-app/{client}`,
    "client",
  );
}

/**
 * The client app the 2.0 PUT client-app page addresses by `client_id`: its error table tells an unknown
 * app (`not_found`, 404) from one the caller may not change (`not_permitted`, 403), here another user's.
 */
function appToChange(state: SandboxState, userId: string, id: string): ClientAppRecord {
  const app = state.assessment.clientApps.get(id);
  if (app === undefined) {
    return refuse(
      { kind: "not_found", resource: "client_app" },
      `client_id: no client app ${JSON.stringify(id)}`,
      "client_id",
    );
  }
  if (app.creatorId !== userId) {
    refuse(
      { kind: "no_permission", resource: "client_app" },
      `client_id: ${JSON.stringify(id)} is another user's client app, which the acting user may not change`,
      "client_id",
    );
  }
  return app;
}

/** The 2.0 PUT client-app page's `invalid_application_url`: a `url` sent must be an http(s) URL. */
function refuseAppUrl(form: ClientAppForm): void {
  if (form.url !== undefined && !isHttpUrl(form.url)) {
    refuse({ kind: "named", id: "invalid_application_url" }, 'form field "url": an http or https URL', "url");
  }
}

/** The fields of a client app form, 2.0's declared ones or 2.1's open form narrowed to strings. */
interface ClientAppForm {
  readonly name?: string;
  readonly description?: string;
  readonly redirectionEndpoint?: string;
  readonly url?: string;
  readonly iconKey?: unknown;
}

/** 2.1's open form, its values narrowed to the fields 2.0's page declares. */
function clientAppFormOf(body: Readonly<Record<string, unknown>> | undefined): ClientAppForm {
  const text = (field: string) => {
    const value = body?.[field];
    return typeof value === "string" ? { [field]: value } : {};
  };
  return {
    ...text("name"),
    ...text("description"),
    ...text("redirectionEndpoint"),
    ...text("url"),
    ...(body?.iconKey === undefined ? {} : { iconKey: body.iconKey }),
  };
}

/** The fields of a registration or change, checked as the 2.0 POST client-apps page names its errors. */
function checkedAppFields(form: ClientAppForm, current: ClientAppRecord | undefined) {
  refuseImageKeys(form, ["iconKey"]);
  const name = (form.name ?? current?.name ?? "").trim();
  if (name === "") refuse({ kind: "invalid", field: "name" }, 'form field "name": must not be blank', "name");
  const redirectionEndpoint = form.redirectionEndpoint ?? current?.redirectionEndpoint ?? "";
  if (!isHttpUrl(redirectionEndpoint)) {
    refuse(
      { kind: "named", id: "invalid_redirection_uri" },
      'form field "redirectionEndpoint": an http or https URL',
      "redirectionEndpoint",
    );
  }
  const url = form.url ?? current?.url;
  return {
    name,
    description: form.description ?? current?.description ?? "",
    redirectionEndpoint,
    ...(url === undefined ? {} : { url }),
  };
}

/** Registers a client app of the acting user, with a new secret. */
function registerClientApp(state: SandboxState, userId: string, form: ClientAppForm): ClientAppRecord {
  const fields = checkedAppFields(form, undefined);
  return state.assessment.clientApps.put({
    id: state.assessment.clientApps.newId("app"),
    ...fields,
    secret: globalThis.crypto.randomUUID(),
    creatorId: userId,
    created: state.org.now(),
  });
}

/** Changes the fields a form sends; the others, the secret and the creation stay. */
function changeClientApp(state: SandboxState, app: ClientAppRecord, form: ClientAppForm): ClientAppRecord {
  const { url: _oldUrl, ...kept } = app;
  return state.assessment.clientApps.put({ ...kept, ...checkedAppFields(form, app) });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

function registerDevice(
  state: SandboxState,
  userId: string,
  platform: string | undefined,
  address: string | undefined,
) {
  if (platform === undefined || platform.trim() === "") {
    refuse(
      { kind: "named", id: "no_platform_specified" },
      "platform: ANDROID or IOS is required",
      "platform",
    );
  }
  const upper = platform.toUpperCase();
  if (!PLATFORMS.includes(upper)) {
    refuse(
      { kind: "named", id: "unsupported_platform" },
      `platform: ANDROID or IOS (got ${JSON.stringify(platform)})`,
      "platform",
    );
  }
  if (address === undefined || address.trim() === "") {
    refuse(
      { kind: "named", id: "no_token_specified" },
      "token: the device's push address is required",
      "token",
    );
  }
  const known = state.assessment.pushDevices
    .all()
    .find((d) => d.userId === userId && d.platform === upper && d.address === address);
  if (!known) {
    state.assessment.pushDevices.put({
      id: state.assessment.pushDevices.newId("device"),
      userId,
      platform: upper,
      address,
      registered: state.org.now(),
    });
  }
}

/** Registers the device the path names (platform and address), answering 204 as the 2.0 page does. */
function registerPathDevice({
  state,
  userId,
  path,
}:
  | ResourceRequest<"registerPushDevice_v2_1">
  | ResourceRequest<"registerPushDeviceByPlatformAndAddress_v2_0">) {
  registerDevice(state, userId, path.platform, path.address);
  return { status: 204 } as const;
}

function deregister(
  state: SandboxState,
  userId: string,
  match: (platform: string, address: string) => boolean,
) {
  const gone = state.assessment.pushDevices
    .all()
    .filter((d) => d.userId === userId && match(d.platform, d.address));
  for (const d of gone) state.assessment.pushDevices.delete(d.id);
  return gone.length;
}

/** The client apps a user registered, in the order registered. */
function clientAppsOf(state: SandboxState, userId: string): ClientAppRecord[] {
  return state.assessment.clientApps.all().filter((a) => a.creatorId === userId);
}

/** The beacon form of 2.1 and 2.1.1 (the same fields). */
type BeaconForm = BodyOf<"storeBeacon_v2_1">;

/** Stores or replaces a beacon for the organization the acting user manages. */
function storeBeacon(state: SandboxState, userId: string, beacon: string, body: BeaconForm): void {
  const id = beaconId(beacon);
  const organization = beaconOrganization(state, userId, "MANAGE");
  const owner = state.assessment.beacons.get(id)?.organizationId;
  if (owner !== undefined && owner !== organization.id) {
    refuse({ kind: "no_permission" }, "the beacon belongs to another organization");
  }
  if (playableOf(state, body.playableType, body.playableId) === undefined) {
    refuse(
      { kind: "named", id: "playable_not_found" },
      `playableId: no ${body.playableType} ${JSON.stringify(body.playableId)}`,
      "playableId",
    );
  }
  state.assessment.beacons.put({
    id,
    organizationId: organization.id,
    playableType: body.playableType,
    playableId: body.playableId,
    proximity: body.proximity,
    lingerDuration: body.lingerDuration,
    ...(body.description === undefined ? {} : { description: body.description }),
  });
}

/** An organization's beacons in the order stored, `query` on the playable's name or the description. */
function organizationBeacons(state: SandboxState, organizationId: string, query: string | undefined) {
  const needle = query?.trim().toLowerCase();
  const found = state.assessment.beacons
    .all()
    .filter((b) => b.organizationId === organizationId)
    .map((b) => beaconV21(state, b))
    .filter(
      (b) => !needle || `${b.playable?.name ?? ""}\n${b.description ?? ""}`.toLowerCase().includes(needle),
    );
  return { beacons: found, total: found.length };
}

/** The devices family; see the module comment. */
export const devices = defineFamily("devices", {
  storeBeacon_v2_1_1: {
    behaviour: "as `storeBeacon_v2_1`",
    handle: ({ state, userId, path, body }) => {
      storeBeacon(state, userId, path.beacon, body);
      return ok({});
    },
  },
  getBeacon_v2_1_1: {
    behaviour: "as `getBeacon_v2_1` (the page's statuses: `invalid_id` 400, `beacon_not_found` 404)",
    handle: ({ state, userId, path }) => ok(beaconV21(state, beaconFor(state, userId, path.beacon))),
  },
  listBeacons_v2_1_1: {
    behaviour:
      "as `listBeacons_v2_1`, `query` on the playable's name and the beacon's description (case-insensitive); `not_permitted` (403)",
    handle: ({ state, userId, query }) =>
      ok(organizationBeacons(state, beaconOrganization(state, userId, "VIEW").id, query.query)),
  },
  listOrganizationBeacons_v2_1_1: {
    behaviour:
      "as `listBeacons_v2_1_1` for the organization in the path, which must be one the acting user holds a permission on (else `not_permitted`, 403, also for an unknown organization)",
    handle: ({ state, userId, path, query }) => {
      if (state.org.organizationPermission(userId, path.organization) === undefined) {
        refuse(
          { kind: "no_permission" },
          `the acting user ${JSON.stringify(userId)} holds no permission on organization ${JSON.stringify(path.organization)}`,
        );
      }
      return ok(organizationBeacons(state, path.organization, query.query));
    },
  },
  storeBeacon_v2_1: {
    behaviour:
      "stores or replaces the beacon of the ID in the path (`invalid_id` unless `07212ead-8344-4426-8b41-8b0cb621625a_<major>_<minor>` in 4 hex digits each) for the organization the acting user holds MANAGE on (`not_permitted`); the playable must exist with that type (`playable_not_found`); keeps `proximity`, `lingerDuration` and `description` (read back by `getBeacon`); answers `{}`",
    handle: ({ state, userId, path, body }) => {
      storeBeacon(state, userId, path.beacon, body);
      return ok({});
    },
  },
  getBeacon_v2_1: {
    behaviour:
      "the beacon with its playable (the acting user needs a permission on its organization); `invalid_id`, `beacon_not_found`, `not_permitted`",
    handle: ({ state, userId, path }) => ok(beaconV21(state, beaconFor(state, userId, path.beacon))),
  },
  listBeacons_v2_1: {
    behaviour:
      "the beacons of the acting user's organization, in the order stored; `not_permitted` without a permission on one",
    handle: ({ state, userId }) => {
      const organization = beaconOrganization(state, userId, "VIEW");
      const found = state.assessment.beacons.all().filter((b) => b.organizationId === organization.id);
      return ok({ beacons: found.map((b) => beaconV21(state, b)), total: found.length });
    },
  },
  deleteBeacon_v2_1: {
    behaviour:
      "deletes the beacon (needs MANAGE on its organization); answers `{}` as its sibling `storeBeacon` page does (this page shows no answer: the beacons family's rule, a sandbox choice)",
    handle: ({ state, userId, path }) => {
      const beacon = beaconFor(state, userId, path.beacon);
      beaconOrganization(state, userId, "MANAGE");
      state.assessment.beacons.delete(beacon.id);
      return ok({});
    },
  },
  createClientApp_v2_0: {
    behaviour:
      "registers a client app of the acting user (ID `app-<n>`, a random `secret` shown only in this answer, `created`, `creator`, `status` `EXPERIMENTAL`: the description's ClientApp, from the ClientApp object page, says new applications start experimental); blank `name`: `invalid_name`; `redirectionEndpoint` not an http(s) URL: `invalid_redirection_uri`; the sandbox has no image uploads, so any `iconKey` is `invalid_icon_key`",
    handle: ({ state, userId, body }) =>
      ok(clientAppV20(state, registerClientApp(state, userId, body), true)),
  },
  createClientApp_v2_1: {
    behaviour:
      "as `createClientApp_v2_0`, answered in the 2.1.1 ClientApp shape; no page of this operation was found, so it takes the fields of the 2.0 page (`name`, `description`, `redirectionEndpoint`, `url`, `iconKey`) with its errors (`invalid_name` also for a missing name, as that page says; a missing `redirectionEndpoint` `invalid_redirection_uri`, a sandbox choice)",
    handle: ({ state, userId, body }) =>
      ok(clientAppV21(state, registerClientApp(state, userId, clientAppFormOf(body)), true)),
  },
  listClientApps_v2_0: {
    behaviour:
      "the acting user's client apps in the 2.0 shape, without secrets (the answer is not shown: a bare list)",
    handle: ({ state, userId }) => ok(clientAppsOf(state, userId).map((a) => clientAppV20(state, a, false))),
  },
  listOwnClientApps_v2_1: {
    behaviour: "as `listClientApps_v2_0`, in the 2.1.1 ClientApp shape",
    handle: ({ state, userId }) => ok(clientAppsOf(state, userId).map((a) => clientAppV21(state, a, false))),
  },
  listClientApps_v2_1: {
    behaviour:
      "the client apps of the user in the path (ID or email address; unknown: `not_found`) as `listOwnClientApps_v2_1` does; a sandbox choice, as no page shows who may list another user's apps: only the acting user's own (another user's: `no_permission`, 403)",
    handle: ({ state, userId, path }) => {
      const user = addressedUser(state, path.user, "user");
      if (user.id !== userId) {
        refuse(
          { kind: "no_permission", resource: "client_app" },
          `the acting user may list only their own client apps, not those of ${JSON.stringify(path.user)}`,
        );
      }
      return ok(clientAppsOf(state, user.id).map((a) => clientAppV21(state, a, false)));
    },
  },
  getClientApp_v2_0: {
    behaviour:
      "the acting user's client app in the 2.0 shape, without its secret; the 2.0 path names no app, so it is the user's only one (a sandbox choice): none `not_found` (404), several `client_missing` (400; `getClientApp_v2_1` names one)",
    handle: ({ state, userId }) => ok(clientAppV20(state, onlyOwnApp(state, userId), false)),
  },
  updateClientApp_v2_0: {
    behaviour:
      "changes the fields the form sends (`name`, `description`, `redirectionEndpoint`, `url`, as `createClientApp_v2_0` takes them, with its errors) of the app `getClientApp_v2_0` addresses; the secret stays; answers the app in the 2.0 shape without its secret; the 2.0 PUT client-app page addresses the app by ID in a further path segment, which is `updateClientAppByClientId_v2_0`",
    handle: ({ state, userId, body }) =>
      ok(
        clientAppV20(state, changeClientApp(state, onlyOwnApp(state, userId), clientAppFormOf(body)), false),
      ),
  },
  updateClientAppByClientId_v2_0: {
    behaviour:
      "the 2.0 PUT client-app page's path (an observed operation beside `updateClientApp_v2_0`): changes the acting user's app `client_id` names as `updateClientApp_v2_1` does (the page's required `name` and `redirectionEndpoint`, optional `description`, `url`, `iconKey`; the secret stays) and answers it in the 2.0 shape without its secret; the page's codes: `not_found` (404) for an unknown app, `not_permitted` (403) for another user's, `invalid_name`, `invalid_redirection_uri`, `invalid_application_url` for a `url` that is no http(s) URL (400); the form has no status field and the path always names an app, so `invalid_status` and `missing_client_id` are not answered",
    handle: ({ state, userId, path, body }) => {
      const app = appToChange(state, userId, path.client_id);
      refuseAppUrl(body);
      return ok(clientAppV20(state, changeClientApp(state, app, body), false));
    },
  },
  updateClientApp_v2_1: {
    behaviour:
      "as `updateClientApp_v2_0` for one of the acting user's apps by ID (another's or an unknown one: `not_found`), answered in the 2.1.1 ClientApp shape",
    handle: ({ state, userId, path, body }) =>
      ok(
        clientAppV21(
          state,
          changeClientApp(state, ownApp(state, userId, path.client), clientAppFormOf(body)),
          false,
        ),
      ),
  },
  getClientApp_v2_1: {
    behaviour:
      "one of the acting user's client apps in the 2.1.1 ClientApp shape, without its secret; `not_found` for another's or an unknown one",
    handle: ({ state, userId, path }) => ok(clientAppV21(state, ownApp(state, userId, path.client), false)),
  },
  deleteClientApp_v2_1: {
    behaviour: "deletes one of the acting user's client apps; answers a `Message`; `not_found`",
    handle: ({ state, userId, path }) => {
      const app = ownApp(state, userId, path.client);
      state.assessment.clientApps.delete(app.id);
      return ok({ description: `client app ${app.name} deleted` });
    },
  },
  registerPushDevice_v2_0: {
    behaviour:
      "registers the acting user's device from the form fields `platform` (`ANDROID` or `IOS`) and `token` (its push address; the field names follow the page's error identifiers, a sandbox choice: the page puts both in the path, which is `registerPushDeviceByPlatformAndAddress_v2_0`); answers 204; `no_platform_specified`, `unsupported_platform`, `no_token_specified`",
    handle: ({ state, userId, body }) => {
      const b = body as Body;
      registerDevice(
        state,
        userId,
        typeof b?.platform === "string" ? b.platform : undefined,
        typeof b?.token === "string" ? b.token : undefined,
      );
      return { status: 204 };
    },
  },
  registerPushDeviceByPlatformAndAddress_v2_0: {
    behaviour:
      "the 2.0 PUT mobile push subscription page's path (an observed operation beside `registerPushDevice_v2_0`): registers the acting user's device of the path's platform (`ANDROID` or `IOS`, any case; another: `unsupported_platform`, 400) and address, as `registerPushDevice_v2_1` does; registering it again changes nothing; answers 204 as the page says",
    handle: registerPathDevice,
  },
  registerPushDevice_v2_1: {
    behaviour:
      "as `registerPushDevice_v2_0`, the platform and address in the path; answers 204 as the 2.0 page does (this page shows no answer: the push devices family's rule, a sandbox choice)",
    handle: registerPathDevice,
  },
  deregisterPushDevice_v2_1: {
    behaviour:
      "removes the acting user's device of the path; answers 204 (the push devices family's rule: the 2.0 register page's 204; this page shows no answer); an unknown one: `not_found`",
    handle: ({ state, userId, path }) => {
      const removed = deregister(
        state,
        userId,
        (p, a) => p === path.platform.toUpperCase() && a === path.address,
      );
      if (removed === 0)
        refuse({ kind: "not_found", resource: "device" }, "address: no such registered device", "address");
      return { status: 204 };
    },
  },
});
