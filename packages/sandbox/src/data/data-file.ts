import { createPublicKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import type {
  Catalog,
  Course,
  Drill,
  DrillItem,
  Group,
  Organization,
  SandboxData,
  ServiceAccountPublicKey,
  User,
} from "../domain/types.js";
import { COURSE_TYPE, DRILL_TYPE } from "../domain/types.js";
import type { DataFileProblem } from "../errors.js";
import { DataFileError } from "../errors.js";

/**
 * Version of the data file format this module reads (`formatVersion`, optional in the file).
 *
 * @example
 * JSON.stringify({ formatVersion: DATA_FILE_FORMAT_VERSION, organizations: [], users: [], drills: [] });
 */
export const DATA_FILE_FORMAT_VERSION = 1;

/**
 * Outcome of {@link validateDataFile}: the data, or every problem found.
 *
 * @example
 * const result = validateDataFile(JSON.parse(text));
 * if (!result.ok) console.log(result.problems);
 */
export type DataFileValidation =
  | { readonly ok: true; readonly data: SandboxData }
  | { readonly ok: false; readonly problems: readonly DataFileProblem[] };

type Json = Record<string, unknown>;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MIN_RSA_BITS = 2048;

function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/** Collects problems while reading a parsed JSON value into the sandbox's types. */
class Reader {
  readonly problems: DataFileProblem[] = [];
  /**
   * One shared object per distinct item: drills repeat items a lot (the same word in many sets), and
   * items are never changed, so a 100,000-drill file keeps thousands of item objects, not millions.
   */
  readonly items = new Map<string, DrillItem>();
  readonly #texts = new Map<string, string>();

  /** One string per distinct value for labels that repeat across records (tags, subjects, names of parts). */
  shared(value: string): string {
    const known = this.#texts.get(value);
    if (known !== undefined) return known;
    this.#texts.set(value, value);
    return value;
  }

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  object(value: unknown, path: string, allowed: readonly string[]): Json | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.problem(path, `must be an object, got ${describe(value)}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.problem(child(path, key), `unknown property (allowed: ${allowed.join(", ")})`);
    }
    return value as Json;
  }

  string(obj: Json, key: string, path: string): string {
    const value = obj[key];
    // The path is built only for a problem: a large file has millions of valid strings.
    if (value === undefined) {
      this.problem(child(path, key), "is required (a non-empty string)");
      return "";
    }
    if (typeof value !== "string" || value.trim() === "") {
      this.problem(child(path, key), `must be a non-empty string, got ${describe(value)}`);
      return "";
    }
    return value;
  }

  optionalString(obj: Json, key: string, path: string, fallback: string): string {
    const value = obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== "string") {
      this.problem(child(path, key), `must be a string, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  optionalBoolean(obj: Json, key: string, path: string, fallback: boolean): boolean {
    const value = obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") {
      this.problem(child(path, key), `must be true or false, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  array(obj: Json, key: string, path: string, required: boolean): unknown[] {
    const value = obj[key];
    const at = child(path, key);
    if (value === undefined) {
      if (required) this.problem(at, "is required (an array)");
      return [];
    }
    if (!Array.isArray(value)) {
      this.problem(at, `must be an array, got ${describe(value)}`);
      return [];
    }
    return value;
  }

  /** An array of non-empty strings without repeats; `check` adds rules for each element. */
  strings(
    obj: Json,
    key: string,
    path: string,
    required: boolean,
    check?: (value: string, at: string) => void,
  ): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    this.array(obj, key, path, required).forEach((value, i) => {
      const at = () => child(child(path, key), i);
      if (typeof value !== "string" || value.trim() === "") {
        this.problem(at(), `must be a non-empty string, got ${describe(value)}`);
        return;
      }
      if (seen.has(value)) {
        this.problem(at(), `repeats ${JSON.stringify(value)}`);
        return;
      }
      seen.add(value);
      check?.(value, at());
      out.push(this.shared(value));
    });
    return out;
  }

  constant(obj: Json, key: string, path: string, expected: string): void {
    const value = obj[key];
    if (value !== undefined && value !== expected) {
      this.problem(
        child(path, key),
        `must be ${JSON.stringify(expected)} when given, got ${describe(value)}`,
      );
    }
  }
}

function readPublicKey(reader: Reader, obj: Json, path: string): ServiceAccountPublicKey | undefined {
  if (obj.serviceAccountKey === undefined) return undefined;
  const at = child(path, "serviceAccountKey");
  const key = reader.object(obj.serviceAccountKey, at, ["keyId", "publicKeyPem"]);
  if (key === undefined) return undefined;
  const keyId = reader.string(key, "keyId", at);
  const pem = reader.string(key, "publicKeyPem", at);
  if (pem === "") return undefined;
  const pemAt = child(at, "publicKeyPem");
  if (!pem.includes("-----BEGIN PUBLIC KEY-----")) {
    reader.problem(pemAt, "must be a PEM encoded public key (SPKI) starting with -----BEGIN PUBLIC KEY-----");
    return undefined;
  }
  try {
    const parsed = createPublicKey({ key: pem, format: "pem" });
    const bits = parsed.asymmetricKeyDetails?.modulusLength ?? 0;
    if (parsed.asymmetricKeyType !== "rsa") {
      reader.problem(
        pemAt,
        `must be an RSA key (RS256 signs assertions), got ${parsed.asymmetricKeyType ?? "unknown"}`,
      );
      return undefined;
    }
    if (bits < MIN_RSA_BITS) {
      reader.problem(pemAt, `must be an RSA key of at least ${MIN_RSA_BITS} bits, got ${bits}`);
      return undefined;
    }
  } catch {
    reader.problem(pemAt, "is not a readable PEM public key");
    return undefined;
  }
  return { keyId, publicKeyPem: pem };
}

/** Fields drills and courses share; a record may hold these plus its own. */
const DRILLABLE_FIELDS = ["id", "type", "name", "subject", "description", "tags", "inStore"] as const;

/** Reads the fields shared by drills and courses; `type` must be the given one when present. */
function readDrillableFields<T extends typeof DRILL_TYPE | typeof COURSE_TYPE>(
  r: Reader,
  obj: Json,
  path: string,
  type: T,
) {
  r.constant(obj, "type", path, type);
  return {
    id: r.string(obj, "id", path),
    type,
    name: r.string(obj, "name", path),
    subject: r.shared(r.string(obj, "subject", path)),
    description: r.optionalString(obj, "description", path, ""),
    tags: r.strings(obj, "tags", path, false),
    inStore: r.optionalBoolean(obj, "inStore", path, true),
  };
}

function readItems(reader: Reader, obj: Json, path: string): DrillItem[] {
  const values = reader.array(obj, "items", path, true);
  const at = child(path, "items");
  if (Array.isArray(obj.items) && values.length === 0) reader.problem(at, "must hold at least one item");
  const items: DrillItem[] = [];
  values.forEach((value, i) => {
    const plain = value as { ask?: unknown; tell?: unknown } | null;
    const { ask, tell } = plain ?? {};
    // Fast path for the common, valid item; anything else goes through the checks that name the problem.
    if (
      typeof ask === "string" &&
      typeof tell === "string" &&
      ask.trim() !== "" &&
      tell.trim() !== "" &&
      Object.keys(plain as object).length === 2 &&
      !Array.isArray(plain)
    ) {
      const key = `${ask}\u0000${tell}`;
      let shared = reader.items.get(key);
      if (shared === undefined) {
        shared = { ask, tell };
        reader.items.set(key, shared);
      }
      items.push(shared);
      return;
    }
    const itemAt = child(at, i);
    const item = reader.object(value, itemAt, ["ask", "tell"]);
    if (item === undefined) return;
    items.push({ ask: reader.string(item, "ask", itemAt), tell: reader.string(item, "tell", itemAt) });
  });
  return items;
}

/**
 * Checks a parsed data file and converts it into sandbox data. Reports every problem at once, each
 * with the JSON path of the offending value. Besides the shape of each entry it checks that IDs are
 * unique (drills and courses share one ID space), that no email address or third-party ID names two
 * users, and that every reference points at something that exists. The format is described in
 * `data/FORMAT.md`.
 *
 * @example
 * const result = validateDataFile({ users: [], drills: [] });
 * // result.ok === false; result.problems[0] → { path: "$.organizations", message: "is required (an array)" }
 */
export function validateDataFile(value: unknown): DataFileValidation {
  const r = new Reader();
  const root = r.object(value, "$", [
    "$schema",
    "formatVersion",
    "organizations",
    "users",
    "drills",
    "courses",
    "catalogs",
    "groups",
  ]);
  if (root === undefined) return { ok: false, problems: r.problems };
  if (root.$schema !== undefined && typeof root.$schema !== "string") {
    r.problem("$.$schema", `must be a string, got ${describe(root.$schema)}`);
  }
  if (root.formatVersion !== undefined && root.formatVersion !== DATA_FILE_FORMAT_VERSION) {
    r.problem("$.formatVersion", `must be ${DATA_FILE_FORMAT_VERSION}, got ${describe(root.formatVersion)}`);
  }

  // IDs are collected first so that references can be checked in any order.
  const organizations: { value: Organization; path: string }[] = [];
  r.array(root, "organizations", "$", true).forEach((entry, i) => {
    const path = `$.organizations[${i}]`;
    const o = r.object(entry, path, ["id", "name", "serviceAccountId", "serviceAccountKey"]);
    if (o === undefined) return;
    const key = readPublicKey(r, o, path);
    const org: Organization = {
      id: r.string(o, "id", path),
      name: r.string(o, "name", path),
      serviceAccountId: r.string(o, "serviceAccountId", path),
      ...(key === undefined ? {} : { serviceAccountKey: key }),
    };
    organizations.push({ value: org, path });
  });
  if (Array.isArray(root.organizations) && root.organizations.length === 0) {
    r.problem("$.organizations", "must hold at least one organization (its service account gets tokens)");
  }

  const users: { value: User; path: string }[] = [];
  r.array(root, "users", "$", true).forEach((entry, i) => {
    const path = `$.users[${i}]`;
    const u = r.object(entry, path, ["id", "name", "emails", "thirdPartyIds", "organizationId"]);
    if (u === undefined) return;
    const organizationId = u.organizationId === undefined ? undefined : r.string(u, "organizationId", path);
    const user: User = {
      id: r.string(u, "id", path),
      name: r.string(u, "name", path),
      emails: r.strings(u, "emails", path, false, (email, at) => {
        if (!EMAIL.test(email)) r.problem(at, "must be an email address (name@domain)");
      }),
      thirdPartyIds: r.strings(u, "thirdPartyIds", path, false),
      ...(organizationId === undefined ? {} : { organizationId }),
    };
    users.push({ value: user, path });
  });

  const drills: { value: Drill; path: string }[] = [];
  r.array(root, "drills", "$", true).forEach((entry, i) => {
    const path = `$.drills[${i}]`;
    const d = r.object(entry, path, [...DRILLABLE_FIELDS, "askName", "tellName", "items"]);
    if (d === undefined) return;
    drills.push({
      path,
      value: {
        ...readDrillableFields(r, d, path, DRILL_TYPE),
        askName: r.shared(r.string(d, "askName", path)),
        tellName: r.shared(r.string(d, "tellName", path)),
        items: readItems(r, d, path),
      },
    });
  });

  const courses: { value: Course; path: string }[] = [];
  r.array(root, "courses", "$", false).forEach((entry, i) => {
    const path = `$.courses[${i}]`;
    const c = r.object(entry, path, [...DRILLABLE_FIELDS, "drillIds"]);
    if (c === undefined) return;
    courses.push({
      path,
      value: {
        ...readDrillableFields(r, c, path, COURSE_TYPE),
        drillIds: r.strings(c, "drillIds", path, true),
      },
    });
  });

  const catalogs: { value: Catalog; path: string }[] = [];
  r.array(root, "catalogs", "$", false).forEach((entry, i) => {
    const path = `$.catalogs[${i}]`;
    const c = r.object(entry, path, ["id", "name", "drillableIds", "userIds"]);
    if (c === undefined) return;
    catalogs.push({
      path,
      value: {
        id: r.string(c, "id", path),
        name: r.string(c, "name", path),
        drillableIds: r.strings(c, "drillableIds", path, true),
        userIds: r.strings(c, "userIds", path, true),
      },
    });
  });

  const groups: { value: Group; path: string }[] = [];
  r.array(root, "groups", "$", false).forEach((entry, i) => {
    const path = `$.groups[${i}]`;
    const g = r.object(entry, path, ["id", "name", "organizationId", "memberIds", "drillableIds"]);
    if (g === undefined) return;
    groups.push({
      path,
      value: {
        id: r.string(g, "id", path),
        name: r.string(g, "name", path),
        organizationId: r.string(g, "organizationId", path),
        memberIds: r.strings(g, "memberIds", path, true),
        drillableIds: r.strings(g, "drillableIds", path, true),
      },
    });
  });

  // ---- uniqueness ----
  const unique = (entries: { value: { id: string }; path: string }[], what: string) => {
    const first = new Map<string, string>();
    for (const { value, path } of entries) {
      if (value.id === "") continue;
      const earlier = first.get(value.id);
      if (earlier === undefined) first.set(value.id, path);
      else
        r.problem(
          `${path}.id`,
          `duplicate ${what} ID ${JSON.stringify(value.id)} (first used at ${earlier})`,
        );
    }
    return first;
  };
  const orgIds = unique(organizations, "organization");
  const userIds = unique(users, "user");
  const drillableIds = unique([...drills, ...courses], "drill or course");
  unique(catalogs, "catalog");
  unique(groups, "group");

  const subjectOwner = new Map<string, string>();
  for (const { value, path } of users) {
    if (value.id !== "" && !subjectOwner.has(value.id)) subjectOwner.set(value.id, path);
  }
  for (const { value, path } of users) {
    const names: [string, string][] = [
      ...value.emails.map((e, i): [string, string] => [e, `${path}.emails[${i}]`]),
      ...value.thirdPartyIds.map((t, i): [string, string] => [t, `${path}.thirdPartyIds[${i}]`]),
    ];
    for (const [name, at] of names) {
      const owner = subjectOwner.get(name);
      if (owner !== undefined && owner !== path) {
        r.problem(
          at,
          `${JSON.stringify(name)} already names the user at ${owner}; token subjects must be unambiguous`,
        );
      } else subjectOwner.set(name, path);
    }
  }

  // ---- references ----
  const drillPaths = new Map(drills.map((d) => [d.value.id, d.path]));
  for (const { value, path } of organizations) {
    if (value.serviceAccountId === "") continue;
    const userPath = userIds.get(value.serviceAccountId);
    const user = users.find((u) => u.path === userPath)?.value;
    if (user === undefined) {
      r.problem(`${path}.serviceAccountId`, `no user with ID ${JSON.stringify(value.serviceAccountId)}`);
    } else if (user.organizationId !== value.id) {
      r.problem(
        `${path}.serviceAccountId`,
        `the service account user ${JSON.stringify(user.id)} must have organizationId ${JSON.stringify(value.id)}`,
      );
    }
  }
  for (const { value, path } of users) {
    if (
      value.organizationId !== undefined &&
      value.organizationId !== "" &&
      !orgIds.has(value.organizationId)
    ) {
      r.problem(`${path}.organizationId`, `no organization with ID ${JSON.stringify(value.organizationId)}`);
    }
  }
  for (const { value, path } of courses) {
    value.drillIds.forEach((id, i) => {
      if (drillPaths.has(id)) return;
      const at = `${path}.drillIds[${i}]`;
      if (drillableIds.has(id))
        r.problem(at, `${JSON.stringify(id)} is a course; a course holds drills only`);
      else r.problem(at, `no drill with ID ${JSON.stringify(id)}`);
    });
  }
  const checkDrillables = (ids: readonly string[], at: string) =>
    ids.forEach((id, i) => {
      if (!drillableIds.has(id)) r.problem(`${at}[${i}]`, `no drill or course with ID ${JSON.stringify(id)}`);
    });
  const checkUsers = (ids: readonly string[], at: string) =>
    ids.forEach((id, i) => {
      if (!userIds.has(id)) r.problem(`${at}[${i}]`, `no user with ID ${JSON.stringify(id)}`);
    });
  for (const { value, path } of catalogs) {
    checkDrillables(value.drillableIds, `${path}.drillableIds`);
    checkUsers(value.userIds, `${path}.userIds`);
  }
  for (const { value, path } of groups) {
    if (value.organizationId !== "" && !orgIds.has(value.organizationId)) {
      r.problem(`${path}.organizationId`, `no organization with ID ${JSON.stringify(value.organizationId)}`);
    }
    checkDrillables(value.drillableIds, `${path}.drillableIds`);
    checkUsers(value.memberIds, `${path}.memberIds`);
  }

  if (r.problems.length > 0) return { ok: false, problems: r.problems };
  return {
    ok: true,
    data: {
      organizations: organizations.map((e) => e.value),
      users: users.map((e) => e.value),
      drills: drills.map((e) => e.value),
      courses: courses.map((e) => e.value),
      catalogs: catalogs.map((e) => e.value),
      groups: groups.map((e) => e.value),
    },
  };
}

/**
 * Parses and validates the text of a data file.
 *
 * Errors: {@link DataFileError} listing every problem (including invalid JSON).
 *
 * @example
 * const data = parseDataFile(await readFile("my-data.json", "utf8"), "my-data.json");
 */
export function parseDataFile(text: string, source?: string): SandboxData {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataFileError([{ path: "$", message: `is not valid JSON: ${reason}` }], source);
  }
  const result = validateDataFile(value);
  if (!result.ok) throw new DataFileError(result.problems, source);
  return result.data;
}

/**
 * Reads, parses and validates a data file (`--data <file.json>`).
 *
 * Errors: {@link DataFileError}; file system errors (such as a missing file) are passed on unchanged.
 *
 * @example
 * const state = createState(await readDataFile("./my-data.json"));
 */
export async function readDataFile(path: string): Promise<SandboxData> {
  return parseDataFile(await readFile(path, "utf8"), path);
}
