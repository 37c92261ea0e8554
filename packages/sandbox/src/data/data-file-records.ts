/**
 * Checks of one record of a data file (an organization, user, drill, course, catalog, group, objective
 * or practice record) on its
 * own; what needs the other records (unique IDs, references) is in `data-file-checker.ts`.
 */
import type { ObjectiveData } from "../domain/assessment.js";
import type {
  Catalog,
  Course,
  Drill,
  DrillItem,
  Group,
  Organization,
  PracticeData,
  ServiceAccountPublicKey,
  StaffGrant,
  StaffPermission,
  User,
} from "../domain/types.js";
import { COURSE_TYPE, DRILL_TYPE } from "../domain/types.js";
import type { FieldReader, Json } from "./data-file-fields.js";
import { child } from "./data-file-fields.js";
import { readPublicKeyPem } from "./spki.js";

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MIN_RSA_BITS = 2048;

function readPublicKey(r: FieldReader, obj: Json, path: string): ServiceAccountPublicKey | undefined {
  if (obj.serviceAccountKey === undefined) return undefined;
  const at = child(path, "serviceAccountKey");
  const key = r.object(obj.serviceAccountKey, at, ["keyId", "publicKeyPem"]);
  if (key === undefined) return undefined;
  const keyId = r.string(key, "keyId", at);
  const pem = r.string(key, "publicKeyPem", at);
  if (pem === "") return undefined;
  const pemAt = child(at, "publicKeyPem");
  if (!pem.includes("-----BEGIN PUBLIC KEY-----")) {
    r.problem(pemAt, "must be a PEM encoded public key (SPKI) starting with -----BEGIN PUBLIC KEY-----");
    return undefined;
  }
  const parsed = readPublicKeyPem(pem);
  if (parsed === undefined) {
    r.problem(pemAt, "is not a readable PEM public key");
    return undefined;
  }
  if (parsed.type !== "rsa") {
    r.problem(pemAt, `must be an RSA key (RS256 signs assertions), got ${parsed.type}`);
    return undefined;
  }
  const bits = parsed.bits ?? 0;
  if (bits < MIN_RSA_BITS) {
    r.problem(pemAt, `must be an RSA key of at least ${MIN_RSA_BITS} bits, got ${bits}`);
    return undefined;
  }
  return { keyId, publicKeyPem: pem };
}

/**
 * An organization at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readOrganization(r: FieldReader, entry: unknown, path: string): Organization | undefined {
  const o = r.object(entry, path, ["id", "name", "serviceAccountId", "serviceAccountKey", "staff"]);
  if (o === undefined) return undefined;
  const key = readPublicKey(r, o, path);
  const staff = o.staff === undefined ? undefined : readStaff(r, o, path);
  return {
    id: r.string(o, "id", path),
    name: r.string(o, "name", path),
    serviceAccountId: r.string(o, "serviceAccountId", path),
    ...(key === undefined ? {} : { serviceAccountKey: key }),
    ...(staff === undefined ? {} : { staff }),
  };
}

/** A third-party ID: plain, or `<third party>$<ID>` with one `$` between two non-blank parts. */
const THIRD_PARTY_ID = /^[^$]*[^$\s][^$]*$|^[^$]*[^$\s][^$]*\$[^$]*[^$\s][^$]*$/;

/**
 * A user at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readUser(r: FieldReader, entry: unknown, path: string): User | undefined {
  const u = r.object(entry, path, ["id", "name", "emails", "thirdPartyIds", "organizationId"]);
  if (u === undefined) return undefined;
  const organizationId = u.organizationId === undefined ? undefined : r.string(u, "organizationId", path);
  return {
    id: r.string(u, "id", path),
    name: r.string(u, "name", path),
    emails: r.strings(u, "emails", path, false, (email, at) => {
      if (!EMAIL.test(email)) r.problem(at, "must be an email address (name@domain)");
    }),
    thirdPartyIds: r.strings(u, "thirdPartyIds", path, false, (id, at) => {
      // `<third party>$<ID>` names the third party, as API 2.1.1 writes it in one path segment.
      if (!THIRD_PARTY_ID.test(id))
        r.problem(at, "must be an ID, or <third party>$<ID> with text on both sides");
    }),
    ...(organizationId === undefined ? {} : { organizationId }),
  };
}

/** Fields drills and courses share; a record may hold these plus its own. */
const DRILLABLE_FIELDS = ["id", "type", "name", "subject", "description", "tags", "inStore"] as const;
const DRILL_FIELDS: readonly string[] = [...DRILLABLE_FIELDS, "askName", "tellName", "items"];
const COURSE_FIELDS: readonly string[] = [...DRILLABLE_FIELDS, "drillIds"];

/** Reads the fields shared by drills and courses; `type` must be the given one when present. */
function readDrillableFields(r: FieldReader, obj: Json, path: string, type: string) {
  r.constant(obj, "type", path, type);
  return {
    id: r.string(obj, "id", path),
    name: r.string(obj, "name", path),
    subject: r.shared(r.string(obj, "subject", path)),
    description: r.optionalString(obj, "description", path, ""),
    tags: r.strings(obj, "tags", path, false),
    inStore: r.optionalBoolean(obj, "inStore", path, true),
  };
}

/**
 * Enumerable keys of an object, counted without building the key array. Inherited enumerable keys are
 * counted too, which only sends such an unusual object down the checked path.
 */
function keyCount(value: object): number {
  let count = 0;
  for (const _ in value) count++;
  return count;
}

function readItems(r: FieldReader, obj: Json, path: string): DrillItem[] {
  const values = r.array(obj, "items", path, true);
  if (Array.isArray(obj.items) && values.length === 0)
    r.problem(child(path, "items"), "must hold at least one item");
  // Sized once, not grown by `push`, so no spare room is kept per drill.
  const items: DrillItem[] = new Array(values.length);
  let kept = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const plain = value as { ask?: unknown; tell?: unknown } | null;
    const { ask, tell } = plain ?? {};
    // Fast path for the common, valid item; anything else goes through the checks that name the problem.
    // A new object per item, not one shared per distinct pair: a user's items mostly differ, and the
    // map that found the shared ones cost more time and memory than the objects it saved.
    if (
      typeof ask === "string" &&
      typeof tell === "string" &&
      ask.trim() !== "" &&
      tell.trim() !== "" &&
      !Array.isArray(plain) &&
      keyCount(plain as object) === 2
    ) {
      items[kept++] = { ask, tell };
      continue;
    }
    const itemAt = child(child(path, "items"), i);
    const item = r.object(value, itemAt, ["ask", "tell"]);
    if (item === undefined) continue;
    items[kept++] = { ask: r.string(item, "ask", itemAt), tell: r.string(item, "tell", itemAt) };
  }
  items.length = kept;
  return items;
}

/**
 * A drill at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readDrill(r: FieldReader, entry: unknown, path: string): Drill | undefined {
  const d = r.object(entry, path, DRILL_FIELDS);
  if (d === undefined) return undefined;
  const { id, name, subject, description, tags, inStore } = readDrillableFields(r, d, path, DRILL_TYPE);
  const askName = r.shared(r.string(d, "askName", path));
  const tellName = r.shared(r.string(d, "tellName", path));
  const items = readItems(r, d, path);
  // Written out, not spread: V8 gave each object built by spreading another one hidden classes of its
  // own, over 300 bytes per drill (33 MB of the 110 MB that 100,000 checked drills took).
  return { id, type: DRILL_TYPE, name, subject, description, tags, inStore, askName, tellName, items };
}

/**
 * A course at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readCourse(r: FieldReader, entry: unknown, path: string): Course | undefined {
  const c = r.object(entry, path, COURSE_FIELDS);
  if (c === undefined) return undefined;
  const { id, name, subject, description, tags, inStore } = readDrillableFields(r, c, path, COURSE_TYPE);
  const drillIds = r.strings(c, "drillIds", path, true);
  return { id, type: COURSE_TYPE, name, subject, description, tags, inStore, drillIds };
}

/**
 * A catalog at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readCatalog(r: FieldReader, entry: unknown, path: string): Catalog | undefined {
  const c = r.object(entry, path, ["id", "name", "drillableIds", "userIds"]);
  if (c === undefined) return undefined;
  return {
    id: r.string(c, "id", path),
    name: r.string(c, "name", path),
    drillableIds: r.strings(c, "drillableIds", path, true),
    userIds: r.strings(c, "userIds", path, true),
  };
}

/**
 * A group at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readGroup(r: FieldReader, entry: unknown, path: string): Group | undefined {
  const g = r.object(entry, path, [
    "id",
    "name",
    "description",
    "organizationId",
    "memberIds",
    "drillableIds",
    "staff",
  ]);
  if (g === undefined) return undefined;
  const id = r.string(g, "id", path);
  const name = r.string(g, "name", path);
  const description = r.optionalString(g, "description", path, "");
  const staff = g.staff === undefined ? undefined : readStaff(r, g, path);
  return {
    id,
    name,
    description,
    organizationId: r.string(g, "organizationId", path),
    memberIds: r.strings(g, "memberIds", path, true),
    drillableIds: r.strings(g, "drillableIds", path, true),
    ...(staff === undefined ? {} : { staff }),
  };
}

/**
 * A group objective at `path`, or undefined when it is not an object (the problems are recorded).
 */
export function readObjective(r: FieldReader, entry: unknown, path: string): ObjectiveData | undefined {
  const o = r.object(entry, path, ["id", "groupId", "type", "reviewDate", "minimumProficiency", "drillIds"]);
  if (o === undefined) return undefined;
  const type = r.optionalString(o, "type", path, "ONEOFF");
  if (type !== "ONEOFF" && type !== "PERMANENT") {
    r.problem(`${path}.type`, `must be "ONEOFF" or "PERMANENT" (got ${JSON.stringify(type)})`);
  }
  // Optional: an objective without one gives each member a date of their own (2.1.1 POST objectives).
  const reviewDate = r.optionalString(o, "reviewDate", path, "");
  if (reviewDate !== "" && Number.isNaN(Date.parse(reviewDate))) {
    r.problem(`${path}.reviewDate`, `must be an ISO 8601 date-time (got ${JSON.stringify(reviewDate)})`);
  }
  const minimum = o.minimumProficiency;
  if (typeof minimum !== "number" || !Number.isInteger(minimum) || minimum < 0 || minimum > 100) {
    r.problem(
      `${path}.minimumProficiency`,
      `must be an integer from 0 to 100 (got ${JSON.stringify(minimum)})`,
    );
  }
  return {
    id: r.string(o, "id", path),
    groupId: r.string(o, "groupId", path),
    type: type === "PERMANENT" ? "PERMANENT" : "ONEOFF",
    ...(reviewDate === ""
      ? {}
      : {
          reviewDate: Number.isNaN(Date.parse(reviewDate)) ? reviewDate : new Date(reviewDate).toISOString(),
        }),
    minimumProficiency: typeof minimum === "number" ? minimum : 0,
    drillIds: r.strings(o, "drillIds", path, true),
  };
}

/** A number field that must be an integer (counts) or any number (proficiency) within bounds. */
function readBounded(
  r: FieldReader,
  obj: Json,
  key: string,
  path: string,
  rule: { integer: boolean; max?: number },
): number | undefined {
  const value = obj[key];
  const at = child(path, key);
  const what = rule.integer ? "an integer" : "a number";
  const range = rule.max === undefined ? "of 0 or more" : `from 0 to ${rule.max}`;
  if (value === undefined) {
    r.problem(at, `is required (${what} ${range})`);
    return undefined;
  }
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    (rule.integer && !Number.isInteger(value)) ||
    value < 0 ||
    (rule.max !== undefined && value > rule.max)
  ) {
    r.problem(at, `must be ${what} ${range} (got ${JSON.stringify(value)})`);
    return undefined;
  }
  return value;
}

/**
 * A practice record at `path` (one user's state on one drill), or undefined when it is not an object
 * (the problems are recorded). Whether the user and drill exist and the pair is unique needs the other
 * records: see `data-file-checker.ts`.
 */
export function readPractice(r: FieldReader, entry: unknown, path: string): PracticeData | undefined {
  const p = r.object(entry, path, [
    "userId",
    "drillId",
    "answerCount",
    "correctCount",
    "receptive",
    "productive",
  ]);
  if (p === undefined) return undefined;
  const answerCount = readBounded(r, p, "answerCount", path, { integer: true });
  const correctCount = readBounded(r, p, "correctCount", path, { integer: true });
  if (answerCount !== undefined && correctCount !== undefined && correctCount > answerCount) {
    r.problem(
      child(path, "correctCount"),
      `must not exceed answerCount (${correctCount} correct of ${answerCount} answers)`,
    );
  }
  return {
    userId: r.string(p, "userId", path),
    drillId: r.string(p, "drillId", path),
    // A value with a problem reads as 0: a file with any problem is refused as a whole.
    answerCount: answerCount ?? 0,
    correctCount: correctCount ?? 0,
    receptive: readBounded(r, p, "receptive", path, { integer: false, max: 100 }) ?? 0,
    productive: readBounded(r, p, "productive", path, { integer: false, max: 100 }) ?? 0,
  };
}

const PERMISSIONS: readonly StaffPermission[] = ["MANAGE", "VIEW"];

/** The `staff` list of an organization or group: `{ userId, permission }` entries, one per user. */
function readStaff(r: FieldReader, obj: Json, path: string): StaffGrant[] {
  const grants: StaffGrant[] = [];
  const seen = new Set<string>();
  r.array(obj, "staff", path, false).forEach((entry, i) => {
    const at = `${path}.staff[${i}]`;
    const s = r.object(entry, at, ["userId", "permission"]);
    if (s === undefined) return;
    const userId = r.string(s, "userId", at);
    const permission = r.string(s, "permission", at);
    if (!PERMISSIONS.includes(permission as StaffPermission)) {
      r.problem(`${at}.permission`, `must be "MANAGE" or "VIEW" (got ${JSON.stringify(permission)})`);
    }
    if (seen.has(userId)) r.problem(`${at}.userId`, `user ${JSON.stringify(userId)} is listed twice`);
    seen.add(userId);
    // Kept even when wrong, so later checks name the entry's position in the file; a file with any
    // problem is refused as a whole, so a wrong permission never reaches the state.
    grants.push({ userId, permission: permission as StaffPermission });
  });
  return grants;
}
