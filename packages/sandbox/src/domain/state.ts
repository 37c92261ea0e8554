import { domainRefusal } from "../refusal.js";
import { AccountModel } from "./accounts.js";
import { AssessmentModel } from "./assessment.js";
import { ContentModel } from "./content.js";
import { type Clock, DATASET_DATE, OrganizationModel } from "./organization.js";
import type { ChartMode, PracticeOptions } from "./practice.js";
import { PracticeBook } from "./practice.js";
import { Table } from "./records.js";
import { SearchIndex } from "./search-index.js";
import type { StoreSearchParams } from "./store-search.js";
import { parsePaging, searchStore } from "./store-search.js";
import type {
  AnswerResponse,
  Catalog,
  Course,
  Drill,
  Drillable,
  DrillableRecord,
  Drillables,
  Group,
  Organization,
  QuestionResponse,
  Rendition,
  SandboxData,
  User,
} from "./types.js";

/**
 * Options of {@link createState}.
 */
export type StateOptions = PracticeOptions & {
  /** The clock of assigned dates (a group's `created`); the system clock by default. */
  readonly clock?: Clock;
};

/**
 * The sandbox's whole mutable state: data, search index and practice records.
 *
 * Concurrency: Node runs JavaScript on one thread, so a method that runs to its end without `await`
 * cannot be interleaved with another. Every method here is synchronous; keep them so, and a state
 * change is always atomic, however many requests the HTTP layer has in flight.
 */
export class SandboxState {
  readonly #options: StateOptions;
  /** The data the state started from, and its search index before any change (see {@link reset}). */
  readonly #start: { readonly data: SandboxData; readonly index: SearchIndex };
  #records = new Table<DrillableRecord>();
  #catalogs = new Table<Catalog>();
  #org!: OrganizationModel;
  #content!: ContentModel;
  #accounts!: AccountModel;
  #assessment!: AssessmentModel;
  #index!: SearchIndex;
  /** Whether `#index` is the start's index itself, to be copied before its first change. */
  #indexShared = false;
  #practice!: PracticeBook;

  constructor(data: SandboxData, options: StateOptions = {}) {
    this.#options = options;
    const index = SearchIndex.build([...data.drills, ...data.courses]);
    // The built index stays untouched for `reset`: it is copied before the first change, not here,
    // since a copy at 100,000 drills costs half a second that a start never needs.
    this.#start = { data, index };
    this.#load(data, index, true);
  }

  /** Users, organizations and groups as records with relations (the resource families' state). */
  get org(): OrganizationModel {
    return this.#org;
  }

  /** Authorship, reviews, appreciations and preferences of drills and courses (the content family's). */
  get content(): ContentModel {
    return this.#content;
  }

  /** Profiles, email address states and group invitations of the users in `org`. */
  get accounts(): AccountModel {
    return this.#accounts;
  }

  /** Tests, results, group objectives, beacons, client apps and push devices (the tests family's state). */
  get assessment(): AssessmentModel {
    return this.#assessment;
  }

  /** The search index; kept current by every method that changes a drill or course. */
  get index(): SearchIndex {
    return this.#index;
  }

  /**
   * Replaces the whole state with one built from `data` (already checked by the data file checker):
   * what is not in the data (repertoires, questions, tests, reviews, invitations) starts empty.
   */
  restore(data: SandboxData): void {
    this.#load(data, SearchIndex.build([...data.drills, ...data.courses]), false);
  }

  /**
   * Returns to the data the state started from, dropping every change. Takes the index built at the
   * start back instead of building it again, so a reset between tests stays cheap.
   */
  reset(): void {
    this.#load(this.#start.data, this.#start.index, true);
  }

  #load(data: SandboxData, index: SearchIndex, shared: boolean): void {
    const options = this.#options;
    this.#records = new Table();
    for (const record of data.drills) this.#records.put(record);
    for (const record of data.courses) this.#records.put(record);
    this.#catalogs = new Table();
    for (const catalog of data.catalogs) this.#catalogs.put(catalog);
    this.#org = new OrganizationModel(data, options.clock);
    this.#content = new ContentModel(this.#org.now);
    this.#accounts = new AccountModel(this.#org);
    this.#assessment = new AssessmentModel(data.objectives, DATASET_DATE);
    this.#index = index;
    this.#indexShared = shared;
    this.#practice = new PracticeBook(
      {
        drillable: (id) => this.#records.get(id),
        canAccess: (userId, record) => this.canAccess(userId, record),
        now: this.org.now,
        held: (userId) => this.heldInRepertoire(userId),
      },
      options,
    );
    for (const record of data.practice ?? []) this.#practice.seed(record);
  }

  // ---- users and organizations -------------------------------------------------------------------

  /**
   * A user by ID.
   */
  user(id: string): User | undefined {
    return this.org.users.get(id);
  }

  /**
   * The user a token subject names: by user ID, email address or third-party ID.
   */
  findUserBySubject(subject: string): User | undefined {
    return this.#subjectUser(subject);
  }

  /** The current record of a subject's user: names and addresses change, and added addresses name their user too. */
  #subjectUser(subject: string): User | undefined {
    // Addresses and third-party IDs are added and removed after the start: a subject names the user
    // holding it now, never one that gave it up. The data file checker keeps subjects unambiguous.
    const byId = this.org.users.get(subject);
    if (byId !== undefined) return byId;
    for (const user of this.org.users.values()) if (namesUser(user, subject)) return user;
    return undefined;
  }

  /**
   * Deletes a user account with everything that is the account's alone (the 2.1.1 DELETE user page
   * names group memberships and practice results): its profile and addresses, its places as member or
   * staff of groups and organizations, its catalog access, its practice, repertoire and test results,
   * its practice preferences, review dates and push devices. What others see stays: drills, courses
   * and tests it made, reviews and appreciations, client apps. The caller checks who may delete it.
   */
  deleteUser(userId: string): void {
    // Catalog access first: revoking it checks that the user still exists.
    for (const catalog of this.#catalogs.all()) this.revokeCatalogAccess(userId, catalog.id);
    const org = this.org;
    org.users.delete(userId);
    org.organizationStaff.deleteRight(userId);
    org.groupMembers.deleteRight(userId);
    org.groupStaff.deleteRight(userId);
    this.accounts.profiles.delete(userId);
    this.accounts.addresses.deleteLeft(userId);
    this.content.preferences.deleteRight(userId);
    this.#practice.forgetUser(userId);
    this.assessment.forgetUser(userId);
  }

  /**
   * An organization by ID.
   */
  organization(id: string): Organization | undefined {
    return this.org.organizationData(id);
  }

  /**
   * The organization whose service account has this user ID.
   */
  organizationOfServiceAccount(serviceAccountId: string): Organization | undefined {
    for (const org of this.org.organizations.values())
      if (org.serviceAccountId === serviceAccountId) return this.org.organizationData(org.id);
    return undefined;
  }

  /**
   * Who a token may be issued for: the subject must name the service account itself or a user of the
   * service account's organization. Returns undefined otherwise (unknown service account, unknown
   * subject, or a user of another organization or none).
   */
  resolveTokenSubject(serviceAccountId: string, subject: string): User | undefined {
    const org = this.organizationOfServiceAccount(serviceAccountId);
    if (org === undefined) return undefined;
    const user = this.#subjectUser(subject);
    if (user === undefined) return undefined;
    if (user.id === serviceAccountId || user.organizationId === org.id) return user;
    return undefined;
  }

  /**
   * All organizations (for the token endpoint, which needs their service account keys).
   */
  listOrganizations(): Organization[] {
    return this.org.organizations.all().flatMap((org) => this.org.organizationData(org.id) ?? []);
  }

  // ---- drillables ---------------------------------------------------------------------------------

  /**
   * A drill or course by ID.
   */
  drillable(id: string): DrillableRecord | undefined {
    return this.#records.get(id);
  }

  /**
   * A catalog by ID.
   */
  catalog(id: string): Catalog | undefined {
    return this.#catalogs.get(id);
  }

  /**
   * A group by ID.
   */
  group(id: string): Group | undefined {
    return this.org.groupData(id);
  }

  /**
   * Whether a user may practise a drillable: it is in the public store, or in a catalog the user has
   * access to, or in a group the user belongs to, or (for a drill) in a course that qualifies.
   */
  canAccess(userId: string, record: DrillableRecord): boolean {
    if (this.#directlyAccessible(userId, record)) return true;
    if (record.type !== "DRILL") return false;
    for (const other of this.#records.values()) {
      if (
        other.type === "COURSE" &&
        other.drillIds.includes(record.id) &&
        this.#directlyAccessible(userId, other)
      ) {
        return true;
      }
    }
    return false;
  }

  /**
   * The result-list form of a drillable, with `practice` when the user has practised it.
   */
  toDrillable(record: DrillableRecord, userId: string): Drillable {
    return this.#toDrillable(record, userId, new Set(this.heldInRepertoire(userId)));
  }

  /**
   * The result-list forms of several drillables for one user. What the user holds in their repertoire
   * without adding it is worked out once for the page, not once per entry.
   */
  toDrillables(records: readonly DrillableRecord[], userId: string): Drillable[] {
    const held = new Set(this.heldInRepertoire(userId));
    return records.map((record) => this.#toDrillable(record, userId, held));
  }

  #toDrillable(record: DrillableRecord, userId: string, held: ReadonlySet<string>): Drillable {
    const base = {
      id: record.id,
      name: record.name,
      subject: record.subject,
      type: record.type,
      description: record.description,
    };
    const practice = this.#practice.practiceOf(userId, record, held);
    return practice === undefined ? base : { ...base, practice };
  }

  /**
   * Adds or replaces a drill and updates the search index.
   */
  upsertDrill(drill: Drill): void {
    this.#upsertRecord(drill);
  }

  /**
   * Adds or replaces a course and updates the search index.
   */
  upsertCourse(course: Course): void {
    this.#upsertRecord(course);
  }

  /**
   * Deletes a drill or course everywhere: index, courses, catalogs, groups, renditions, repertoires.
   *
   * Errors: `drillable_not_found`.
   */
  deleteDrillable(id: string): void {
    if (!this.#records.delete(id)) {
      throw domainRefusal(
        "drillable_not_found",
        `drillable: no drill or course with ID "${id}"`,
        "drillable",
      );
    }
    this.#writableIndex().remove(id);
    for (const record of this.#records.values()) {
      if (record.type === "COURSE" && record.drillIds.includes(id)) {
        this.#upsertRecord({ ...record, drillIds: record.drillIds.filter((d) => d !== id) });
      }
    }
    for (const catalog of this.#catalogs.values()) {
      if (catalog.drillableIds.includes(id)) {
        this.#catalogs.update(catalog.id, { drillableIds: catalog.drillableIds.filter((d) => d !== id) });
      }
    }
    this.org.groupDrillables.deleteRight(id);
    this.#practice.forgetDrillable(id);
    this.content.forget(id);
  }

  /**
   * Gives a user access to a catalog (idempotent).
   *
   * Errors: `user_not_found`, `catalog_not_found`.
   */
  grantCatalogAccess(userId: string, catalogId: string): void {
    this.#requireUser(userId);
    this.grantCatalog(catalogId, userId);
  }

  /**
   * Takes a user's access to a catalog away (idempotent).
   *
   * Errors: `user_not_found`, `catalog_not_found`.
   */
  revokeCatalogAccess(userId: string, catalogId: string): void {
    this.#requireUser(userId);
    const catalog = this.#requireCatalog(catalogId);
    if (catalog.userIds.includes(userId)) {
      this.#catalogs.update(catalogId, { userIds: catalog.userIds.filter((u) => u !== userId) });
    }
  }

  /**
   * Deletes a catalog: its content stays, users lose the access it gave, and groups restricted to it
   * lose the restriction (a sandbox choice: the DELETE catalog page says nothing of them).
   *
   * Errors: `catalog_not_found`.
   */
  deleteCatalog(catalogId: string): void {
    this.#requireCatalog(catalogId);
    this.#catalogs.delete(catalogId);
    for (const group of this.org.groups.all()) {
      if (group.catalogRestriction?.catalogId === catalogId) {
        const { catalogRestriction: _dropped, ...rest } = group;
        this.org.groups.put(rest);
      }
    }
  }

  /**
   * Puts a drill or course into a catalog at a position (the end by default); false when it is there
   * already.
   *
   * Errors: `catalog_not_found`.
   */
  addToCatalog(catalogId: string, drillableId: string, position?: number): boolean {
    const catalog = this.#requireCatalog(catalogId);
    if (catalog.drillableIds.includes(drillableId)) return false;
    const ids = [...catalog.drillableIds];
    ids.splice(position ?? ids.length, 0, drillableId);
    this.#catalogs.update(catalogId, { drillableIds: ids });
    return true;
  }

  /**
   * Gives a user access to a catalog (a group restricted to it in `GRANT` mode, on joining). Answers
   * false when the user had access already.
   *
   * Errors: `catalog_not_found`.
   *
   * @example
   * ```ts
   * import { defaultDataset } from "../data/default-dataset.js";
   * import { createState } from "./state.js";
   *
   * const state = createState(await defaultDataset());
   * state.grantCatalog("catalog-academy-business", "user-olivia"); // true
   * ```
   */
  grantCatalog(catalogId: string, userId: string): boolean {
    const catalog = this.#requireCatalog(catalogId);
    if (catalog.userIds.includes(userId)) return false;
    this.#catalogs.update(catalogId, { userIds: [...catalog.userIds, userId] });
    return true;
  }

  /**
   * The drills and courses in a user's repertoire without being added: those the user authored (through
   * the API) and those of the groups the user is a member of (the 2.0 and 2.1.1 GET repertoire pages).
   */
  heldInRepertoire(userId: string): string[] {
    const authored = this.#content.authorship
      .all()
      .filter((a) => a.authorId === userId)
      .map((a) => a.id);
    const ofGroups = this.org.groupMembers
      .leftsOf(userId)
      .flatMap(([groupId]) => this.org.groupDrillables.rightsOf(groupId).map(([id]) => id));
    return [...new Set([...authored, ...ofGroups])];
  }

  /**
   * Whether a drill or course is in the user's repertoire.
   */
  inRepertoire(userId: string, drillableId: string): boolean {
    return this.#practice.repertoireIds(userId).includes(drillableId);
  }

  /**
   * How many users hold a drill or course in their repertoire.
   */
  repertoireHolders(drillableId: string): number {
    let holders = 0;
    for (const user of this.org.users.all()) if (this.inRepertoire(user.id, drillableId)) holders++;
    return holders;
  }

  // ---- operations of the interface ---------------------------------------------------------------

  /**
   * Store search for the acting user. See `searchStore` in `store-search.ts` for the rules.
   *
   * Errors: `user_not_found` and those of `searchStore`.
   */
  searchStore(userId: string, params: StoreSearchParams): Drillables {
    this.#requireUser(userId);
    return searchStore(
      {
        index: this.index,
        catalog: (id) => this.#catalogs.get(id),
        toDrillables: (records, user) => this.toDrillables(records, user),
      },
      userId,
      params,
    );
  }

  /**
   * Next practice question over one or more drills (or courses).
   *
   * Errors: `user_not_found` and those of `PracticeBook.nextQuestion`.
   */
  nextQuestion(userId: string, drillIds: readonly string[]): QuestionResponse {
    this.#requireUser(userId);
    return this.#practice.nextQuestion(userId, drillIds);
  }

  /**
   * Grades an answer to a question given to this user.
   *
   * Errors: `user_not_found` and those of `PracticeBook.answer`.
   */
  answer(userId: string, reference: string, body: unknown): AnswerResponse {
    this.#requireUser(userId);
    return this.#practice.answer(userId, reference, body);
  }

  /**
   * The user's practice status for a drill or course.
   *
   * Errors: `user_not_found`, `drillable_not_found`, `drillable_access_denied`.
   */
  getRendition(userId: string, drillableId: string): Rendition {
    this.#requireUser(userId);
    return this.#practice.getRendition(userId, drillableId);
  }

  /**
   * The user's proficiency on a drill or course before the first answer and after each one since:
   * `[answers given, proficiency]` points in the mode's value (access is the caller's to check).
   */
  proficiencyHistory(userId: string, record: DrillableRecord, mode: ChartMode): [number, number][] {
    return this.#practice.proficiencyHistory(userId, record, mode);
  }

  /** The users with practice recorded on a drill or course, by ID. */
  practisingUsers(record: DrillableRecord): string[] {
    return this.#practice.practisingUsers(record);
  }

  /**
   * The user's repertoire as a page of drillables sorted like a catalog listing (by name, then ID).
   *
   * Errors: `user_not_found`, `parameter_invalid`.
   */
  listRepertoire(
    userId: string,
    paging: { resultStart?: string | number | undefined; resultSize?: string | number | undefined } = {},
  ): Drillables {
    this.#requireUser(userId);
    const { start, size } = parsePaging(paging.resultStart, paging.resultSize);
    const docs: number[] = [];
    for (const id of this.#practice.repertoireIds(userId)) {
      const nr = this.index.docNumber(id);
      if (nr !== undefined) docs.push(nr);
    }
    docs.sort((a, b) => this.index.nameRank(a) - this.index.nameRank(b));
    const records = docs.slice(start, start + size).flatMap((nr) => this.index.record(nr) ?? []);
    return { total: docs.length, drills: this.toDrillables(records, userId) };
  }

  /**
   * Adds a drill or course to the user's repertoire; returns false when it was already there.
   *
   * Errors: `user_not_found`, `drillable_not_found`, `drillable_access_denied`.
   */
  addToRepertoire(userId: string, drillableId: string): boolean {
    this.#requireUser(userId);
    return this.#practice.addToRepertoire(userId, drillableId);
  }

  /**
   * Removes a drill or course from the user's repertoire.
   *
   * Errors: `user_not_found`, `not_in_repertoire`.
   */
  removeFromRepertoire(userId: string, drillableId: string): void {
    this.#requireUser(userId);
    this.#practice.removeFromRepertoire(userId, drillableId);
  }

  /**
   * The current data in the data file's form (drills, courses, catalogs, users, organizations, groups,
   * objectives and practice counts), e.g. to save it. What the format has no place for (repertoires,
   * open questions, tests, reviews, invitations, devices) is not part of it.
   */
  snapshot(): SandboxData {
    const records = this.#records.all();
    // Practice of users and drills deleted since would make the snapshot an invalid data file.
    const practice = this.#practice
      .practiceData()
      .filter((p) => this.org.users.get(p.userId) !== undefined && this.#records.has(p.drillId));
    return {
      organizations: this.listOrganizations(),
      users: this.org.users.all(),
      drills: records.filter((r): r is Drill => r.type === "DRILL"),
      courses: records.filter((r): r is Course => r.type === "COURSE"),
      catalogs: this.#catalogs.all(),
      groups: this.org.groups.all().flatMap((g) => this.org.groupData(g.id) ?? []),
      ...(this.assessment.objectives.size > 0 ? { objectives: this.assessment.objectiveData() } : {}),
      ...(practice.length > 0 ? { practice } : {}),
    };
  }

  #directlyAccessible(userId: string, record: DrillableRecord): boolean {
    if (record.inStore || this.content.authorOf(record.id) === userId) return true;
    for (const catalog of this.#catalogs.values()) {
      if (catalog.drillableIds.includes(record.id) && catalog.userIds.includes(userId)) return true;
    }
    for (const [groupId] of this.org.groupDrillables.leftsOf(record.id)) {
      if (this.org.groupMembers.get(groupId, userId)) return true;
    }
    return false;
  }

  #upsertRecord(record: DrillableRecord): void {
    this.#records.put(record);
    this.#writableIndex().upsert(record);
  }

  /** The live index, copied first when it is still the start's (which `reset` goes back to). */
  #writableIndex(): SearchIndex {
    if (this.#indexShared) {
      this.#index = this.#index.clone();
      this.#indexShared = false;
    }
    return this.#index;
  }

  #requireUser(userId: string): User {
    const user = this.org.users.get(userId);
    if (user === undefined)
      throw domainRefusal("user_not_found", `user: no user with ID "${userId}"`, "user");
    return user;
  }

  #requireCatalog(catalogId: string): Catalog {
    const catalog = this.#catalogs.get(catalogId);
    if (catalog === undefined) {
      throw domainRefusal("catalog_not_found", `catalog: no catalog with ID "${catalogId}"`, "catalog");
    }
    return catalog;
  }
}

/**
 * Creates the sandbox state from a dataset (the embedded one or a validated data file).
 */
export function createState(data: SandboxData, options: StateOptions = {}): SandboxState {
  return new SandboxState(data, options);
}

/** Whether a token subject names the user by one of its current addresses or third-party IDs. */
function namesUser(user: User, subject: string): boolean {
  return user.emails.includes(subject) || user.thirdPartyIds.includes(subject);
}
