import { domainRefusal } from "../refusal.js";
import { hashString, Prng } from "./random.js";
import type {
  AnswerResponse,
  Drill,
  DrillablePractice,
  DrillableRecord,
  PracticeData,
  Proficiency,
  QuestionResponse,
  Rendition,
  TermEvaluation,
} from "./types.js";

/**
 * How fast the proficiency values follow the answers. Each answer scores 100 (right) or 0 (wrong), and
 * each value moves this fraction of the way towards the score. Multiple choice tests recognition, so
 * the receptive value follows quickly and the productive value slowly. The service's real rule is not
 * shown; this is the sandbox's own.
 */
export const PROFICIENCY_RATES = { receptive: 0.2, productive: 0.05 } as const;

/**
 * Seconds of expected practice per drill item (the sandbox's unit and value for `expectedDuration`).
 */
export const SECONDS_PER_ITEM = 10;

/**
 * Seconds of practice each answer counts for (the sandbox's unit and value for `timeSpent`, which it
 * estimates from the answers given rather than measuring).
 */
export const SECONDS_PER_ANSWER = 10;

/** Number of offered choices: the right answer plus up to three distractors. */
const CHOICES = 4;

/** Question sessions (user and drill set) kept; the least recently used go first. */
const MAX_SESSIONS = 10_000;

/**
 * What practice needs from the sandbox state.
 */
export interface PracticeContext {
  drillable(id: string): DrillableRecord | undefined;
  /** Whether the user may practise (or keep in a repertoire) this drillable. */
  canAccess(userId: string, record: DrillableRecord): boolean;
  /** The state's clock, as an ISO 8601 instant: when an answer is recorded (`lastPracticed`). */
  now(): string;
  /**
   * The drills and courses a user holds without adding them: those they (co-)authored and those of
   * their groups (the 2.0 and 2.1.1 GET repertoire pages: the repertoire holds all of them).
   */
  held?(userId: string): readonly string[];
}

/**
 * Options of the practice book.
 */
export interface PracticeOptions {
  /** Seed for question order and choices (default 1). */
  readonly seed?: number;
  /**
   * How many question references are remembered (answered or not) before the oldest are forgotten;
   * a forgotten reference answers `reference_not_found`. Default 100 000.
   */
  readonly maxOpenQuestions?: number;
  /** Source of unguessable references (default `crypto.randomUUID`). */
  readonly randomReference?: () => string;
}

interface RenditionState {
  answerCount: number;
  correctCount: number;
  receptive: number;
  productive: number;
  highest: Proficiency;
  /** When the last answer was recorded; absent for practice a data file gave. */
  lastPracticed?: string;
  /** The values before the first answer recorded here (the data file's, or zero). */
  readonly start: { readonly receptive: number; readonly productive: number };
  /** The values after each answer recorded here, numbered in the book's answer order (`seq`). */
  readonly history: { readonly seq: number; readonly receptive: number; readonly productive: number }[];
}

/** Which proficiency value a chart follows (a course's default is both, the overall value). */
export type ChartMode = "RECEPTIVE" | "PRODUCTIVE" | "BIDIRECTIONAL";

interface Session {
  sequenceNr: number;
  rng: Prng;
  /** Item counts of the drills when the deck was dealt; a change means the deck must be dealt again. */
  signature: string;
  deck: { drill: number; item: number }[];
  position: number;
}

interface OpenQuestion {
  readonly userId: string;
  readonly drillId: string;
  /** The drills practised together (sorted IDs); the answer reports their combined proficiency. */
  readonly drillIds: readonly string[];
  readonly expected: string;
  answered: boolean;
}

/** Code-unit order of IDs (the same order as `Array.prototype.sort` gives the session key's IDs). */
function byId(a: Drill, b: Drill): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function toProficiency(receptive: number, productive: number): Proficiency {
  return {
    receptive: Math.round(receptive),
    productive: Math.round(productive),
    overall: Math.round((receptive + productive) / 2),
  };
}

function maxProficiency(a: Proficiency, b: Proficiency): Proficiency {
  return {
    receptive: Math.max(a.receptive, b.receptive),
    productive: Math.max(a.productive, b.productive),
    overall: Math.max(a.overall, b.overall),
  };
}

/**
 * Expected duration in seconds of a drill or course not practised yet: {@link SECONDS_PER_ITEM} per
 * item; for a course, summed over its drills. {@link remainingDurationOf} scales it by what is left.
 */
export function expectedDurationOf(
  record: DrillableRecord,
  lookup?: (id: string) => DrillableRecord | undefined,
) {
  if (record.type === "DRILL") return record.items.length * SECONDS_PER_ITEM;
  let total = 0;
  for (const id of record.drillIds) {
    const drill = lookup?.(id);
    if (drill?.type === "DRILL") total += drill.items.length * SECONDS_PER_ITEM;
  }
  return total;
}

/**
 * The time still needed to reach 100 % (the Practice pages' `expectedDuration`), in seconds: the
 * sandbox's own estimate, {@link expectedDurationOf} times the share of the overall proficiency
 * still missing. The pages do not show how the service estimates it.
 */
export function remainingDurationOf(full: number, proficiency: Proficiency): number {
  return Math.round((full * (100 - proficiency.overall)) / 100);
}

/**
 * Practice state of all users: open questions, question sessions, renditions and repertoires.
 *
 * Every method runs to completion synchronously, so each state change is atomic in Node's single thread;
 * keep it that way (no `await` inside a mutation) or concurrent requests could lose answers.
 *
 * Proficiency rule (the sandbox's own): each answer scores 100 or 0; receptive moves 20 % and
 * productive 5 % of the way to that score; overall is their mean; reported values are rounded integers
 * and `highestProficiency` is the per-value maximum ever reported.
 */
export class PracticeBook {
  readonly #seed: number;
  readonly #maxOpen: number;
  readonly #randomReference: () => string;
  readonly #renditions = new Map<string, Map<string, RenditionState>>();
  readonly #sessions = new Map<string, Session>();
  readonly #open = new Map<string, OpenQuestion>();
  readonly #repertoires = new Map<string, Set<string>>();
  /** user → drill or course → when it entered the user's repertoire (the Practice page's `added`). */
  readonly #added = new Map<string, Map<string, string>>();
  /** Numbers the answers recorded, in order, so a course's chart can replay its drills' histories. */
  #answerSeq = 0;
  readonly #ctx: PracticeContext;

  constructor(ctx: PracticeContext, options: PracticeOptions = {}) {
    this.#ctx = ctx;
    this.#seed = options.seed ?? 1;
    this.#maxOpen = options.maxOpenQuestions ?? 100_000;
    this.#randomReference = options.randomReference ?? (() => globalThis.crypto.randomUUID());
  }

  /**
   * Sets a user's practice state on a drill as a data file gives it (practice done before the sandbox
   * started); the highest proficiency starts at the given values. Only for building the state: the
   * data file checker has already refused unknown IDs, courses, repeats and values out of range.
   */
  seed(record: PracticeData): void {
    let perUser = this.#renditions.get(record.userId);
    if (perUser === undefined) {
      perUser = new Map();
      this.#renditions.set(record.userId, perUser);
    }
    perUser.set(record.drillId, {
      answerCount: record.answerCount,
      correctCount: record.correctCount,
      receptive: record.receptive,
      productive: record.productive,
      highest: toProficiency(record.receptive, record.productive),
      start: { receptive: record.receptive, productive: record.productive },
      history: [],
    });
  }

  /**
   * Every user's practice counts and proficiency per drill, in the data file's form (the inverse of
   * {@link PracticeBook.seed}); drills nobody answered yet are left out.
   */
  practiceData(): PracticeData[] {
    const out: PracticeData[] = [];
    for (const [userId, perUser] of this.#renditions) {
      for (const [drillId, state] of perUser) {
        const { answerCount, correctCount, receptive, productive } = state;
        out.push({ userId, drillId, answerCount, correctCount, receptive, productive });
      }
    }
    return out;
  }

  /**
   * Builds the next multiple-choice question over one or more drills (a course ID stands for its drills).
   * Items are dealt from a shuffled deck over all items of all the drills, dealt again when used up;
   * the choices are the right answer and up to three other answers from the same drill.
   *
   * Errors: `drill_missing`, `drill_not_found`, `drillable_access_denied`, `drill_empty`.
   */
  nextQuestion(userId: string, drillIds: readonly string[]): QuestionResponse {
    const requested = [...new Set(drillIds)];
    if (requested.length === 0) {
      throw domainRefusal("drill_missing", "drill: at least one drill ID is required", "drill");
    }
    const drills: Drill[] = [];
    const seen = new Set<string>();
    for (const id of requested) {
      const record = this.#ctx.drillable(id);
      if (record === undefined) {
        throw domainRefusal("drill_not_found", `drill: no drill or course with ID "${id}"`, "drill");
      }
      if (!this.#ctx.canAccess(userId, record)) {
        throw domainRefusal("drillable_access_denied", `drill: the user may not practise "${id}"`, "drill");
      }
      const members = record.type === "DRILL" ? [record] : this.#drillsOfCourse(record.drillIds);
      for (const drill of members) {
        if (seen.has(drill.id)) continue;
        seen.add(drill.id);
        drills.push(drill);
      }
    }
    if (drills.every((drill) => drill.items.length === 0)) {
      throw domainRefusal("drill_empty", "drill: the given drills have no items to ask", "drill");
    }

    // One canonical order for the drills, like the session key: the deck's cards point into this list
    // by index, so `drill=a&drill=b` and `drill=b&drill=a` must see the same list to keep one deck.
    drills.sort(byId);
    const session = this.#session(userId, requested.sort(), drills);
    if (session.position >= session.deck.length) this.#deal(session, drills);
    const card = session.deck[session.position++] as { drill: number; item: number };
    const drill = drills[card.drill] as Drill;
    const item = drill.items[card.item] as { ask: string; tell: string };

    const others = new Set<string>();
    for (const other of drill.items) if (other.tell !== item.tell) others.add(other.tell);
    const choices = session.rng.shuffle([item.tell, ...session.rng.sample([...others], CHOICES - 1)]);

    const reference = this.#randomReference();
    this.#remember(reference, {
      userId,
      drillId: drill.id,
      drillIds: drills.map((d) => d.id),
      expected: item.tell,
      answered: false,
    });
    session.sequenceNr++;
    return {
      question: {
        reference,
        sequenceNr: session.sequenceNr,
        ask: { name: drill.askName, term: { value: item.ask } },
        tell: {
          name: drill.tellName,
          composition: "SINGLE",
          type: "MULTIPLE_CHOICE",
          terms: choices.map((value) => ({ value })),
        },
      },
      notifications: [],
    };
  }

  /**
   * Evaluates an answer given as the form field `answer` (one value, or a list for a repeated field),
   * the way the service's reference describes it: one term evaluation per given value (`CORRECT` when
   * it is an expected term not given before, else `INCORRECT`) and one per expected term not given
   * (`MISSED`); the result is `CORRECT` when every given value is and nothing is missed. The reply also
   * carries the proficiency of the practised drills after this answer. A reference can be answered
   * once, and only by the user it was issued to.
   *
   * Errors: `reference_not_found`, `answer_invalid`, `answer_already_given`.
   */
  answer(userId: string, reference: string, body: unknown): AnswerResponse {
    const open = this.#open.get(reference);
    if (open === undefined || open.userId !== userId) {
      throw domainRefusal(
        "reference_not_found",
        "reference: no question with this reference was given to the user",
        "reference",
      );
    }
    if (open.answered) {
      throw domainRefusal(
        "answer_already_given",
        "reference: this question has already been answered",
        "reference",
      );
    }
    const given = readAnswerValues(body);
    const evaluation = evaluate(given, [open.expected]);
    open.answered = true;
    this.#record(userId, open.drillId, evaluation.result === "CORRECT");
    return {
      notifications: [],
      proficiency: this.#combined(userId, open.drillIds).proficiency,
      evaluation,
    };
  }

  /**
   * A user's practice status for a drill or course; all zeros when not practised yet. A course combines
   * its drills: counts are summed, proficiency values averaged over all its drills (unpractised ones
   * count as 0).
   *
   * Errors: `drillable_not_found`, `drillable_access_denied`.
   */
  getRendition(userId: string, drillableId: string): Rendition {
    const record = this.#accessible(userId, drillableId);
    const summary = this.#summary(userId, record);
    const lastPracticed = this.#lastPracticed(userId, record);
    const added = this.#added.get(userId)?.get(record.id);
    const full = expectedDurationOf(record, (id) => this.#ctx.drillable(id));
    return {
      drillableId: record.id,
      type: record.type,
      answerCount: summary.answerCount,
      correctCount: summary.correctCount,
      proficiency: summary.proficiency,
      // The Practice pages: the highest proficiency is "not included for courses".
      ...(record.type === "DRILL" ? { highestProficiency: summary.highest } : {}),
      timeSpent: summary.answerCount * SECONDS_PER_ANSWER,
      expectedDuration: remainingDurationOf(full, summary.proficiency),
      ...(lastPracticed === undefined ? {} : { lastPracticed }),
      ...(added === undefined ? {} : { added }),
    };
  }

  /**
   * The `practice` part of a result-list entry: present when the drill or course is in the user's
   * repertoire, or once the user has answered a question of it (for a course: of any of its drills).
   */
  practiceOf(
    userId: string,
    record: DrillableRecord,
    held: ReadonlySet<string>,
  ): DrillablePractice | undefined {
    const summary = this.#summary(userId, record);
    // The 2.0 Drillable page: `practice` is there when the caller has the drill in their repertoire.
    if (summary.answerCount === 0 && !this.addedToRepertoire(userId, record.id) && !held.has(record.id))
      return undefined;
    const full = expectedDurationOf(record, (id) => this.#ctx.drillable(id));
    return {
      proficiency: summary.proficiency,
      // The 2.0 Practice page, which the Drillable's `practice` is: not included for courses.
      ...(record.type === "DRILL" ? { highestProficiency: summary.highest } : {}),
      expectedDuration: remainingDurationOf(full, summary.proficiency),
    };
  }

  /**
   * Adds a drillable to the user's repertoire; returns false when it was already there.
   *
   * Errors: `drillable_not_found`, `drillable_access_denied`.
   */
  addToRepertoire(userId: string, drillableId: string): boolean {
    if (this.#ctx.drillable(drillableId) !== undefined && this.#ctx.held?.(userId).includes(drillableId))
      return false;
    this.#accessible(userId, drillableId);
    let entries = this.#repertoires.get(userId);
    if (entries === undefined) {
      entries = new Set();
      this.#repertoires.set(userId, entries);
    }
    if (entries.has(drillableId)) return false;
    entries.add(drillableId);
    let added = this.#added.get(userId);
    if (added === undefined) {
      added = new Map();
      this.#added.set(userId, added);
    }
    added.set(drillableId, this.#ctx.now());
    return true;
  }

  /**
   * Removes a drillable from the user's repertoire, with the user's progress on it (the 2.0 DELETE
   * repertoire page: removing "will discard all drill progress and statistics").
   *
   * Errors: `not_in_repertoire`.
   */
  removeFromRepertoire(userId: string, drillableId: string): void {
    this.#added.get(userId)?.delete(drillableId);
    if (this.#repertoires.get(userId)?.delete(drillableId) !== true) {
      throw domainRefusal(
        "not_in_repertoire",
        `drillable: "${drillableId}" is not in the user's repertoire`,
        "drillable",
      );
    }
    this.#discardProgress(userId, drillableId);
  }

  /**
   * Forgets the user's progress on a drillable that left their repertoire: a drill's own, a course's
   * drills' (a course's progress is made of them). Progress on a drill the repertoire still holds, on
   * its own or in a course of it, stays.
   */
  #discardProgress(userId: string, drillableId: string): void {
    const perUser = this.#renditions.get(userId);
    const record = this.#ctx.drillable(drillableId);
    if (perUser === undefined || record === undefined) return;
    const held = new Set<string>();
    for (const id of this.repertoireIds(userId)) {
      const kept = this.#ctx.drillable(id);
      for (const drillId of kept?.type === "COURSE" ? [id, ...kept.drillIds] : [id]) held.add(drillId);
    }
    for (const id of record.type === "COURSE" ? record.drillIds : [record.id])
      if (!held.has(id)) perUser.delete(id);
  }

  /**
   * Whether the user added the drillable themself (PUT repertoire), as opposed to holding it as its
   * author or a group member.
   */
  addedToRepertoire(userId: string, drillableId: string): boolean {
    return this.#repertoires.get(userId)?.has(drillableId) === true;
  }

  /**
   * IDs in the user's repertoire that still exist: those held without adding (authored, of a group)
   * first, then those added, in the order they were added.
   */
  repertoireIds(userId: string): string[] {
    const ids = new Set<string>();
    for (const id of [...(this.#ctx.held?.(userId) ?? []), ...(this.#repertoires.get(userId) ?? [])])
      if (this.#ctx.drillable(id) !== undefined) ids.add(id);
    return [...ids];
  }

  /**
   * Forgets everything about a drillable that was deleted (renditions and repertoire entries).
   */
  forgetDrillable(drillableId: string): void {
    for (const perUser of this.#renditions.values()) perUser.delete(drillableId);
    for (const entries of this.#repertoires.values()) entries.delete(drillableId);
    for (const added of this.#added.values()) added.delete(drillableId);
  }

  /**
   * Forgets everything about a user whose account was deleted: their practice results, repertoire,
   * practice sessions and the questions they were asked and have not answered.
   */
  forgetUser(userId: string): void {
    this.#renditions.delete(userId);
    this.#repertoires.delete(userId);
    this.#added.delete(userId);
    const prefix = `${userId}\u0000`;
    for (const key of [...this.#sessions.keys()]) if (key.startsWith(prefix)) this.#sessions.delete(key);
    for (const [reference, open] of [...this.#open]) if (open.userId === userId) this.#open.delete(reference);
  }

  /**
   * A user's proficiency on a drill or course (a course: averaged over its drills, unpractised ones
   * 0) before the first answer and after each answer recorded since, in the mode's value: the
   * points of a proficiency chart, `[answers given, proficiency]`. Access is the caller's to check.
   */
  proficiencyHistory(userId: string, record: DrillableRecord, mode: ChartMode): [number, number][] {
    const ids = record.type === "DRILL" ? [record.id] : [...new Set(record.drillIds)];
    const drillIds = ids.filter((id) => this.#ctx.drillable(id)?.type === "DRILL");
    const perUser = this.#renditions.get(userId);
    const current = new Map(
      drillIds.map((id) => [id, perUser?.get(id)?.start ?? { receptive: 0, productive: 0 }]),
    );
    const steps = drillIds
      .flatMap((id) => (perUser?.get(id)?.history ?? []).map((point) => ({ id, point })))
      .sort((a, b) => a.point.seq - b.point.seq);
    const value = (): number => {
      if (drillIds.length === 0) return 0;
      let receptive = 0;
      let productive = 0;
      for (const v of current.values()) {
        receptive += v.receptive;
        productive += v.productive;
      }
      const p = toProficiency(receptive / drillIds.length, productive / drillIds.length);
      return mode === "RECEPTIVE" ? p.receptive : mode === "PRODUCTIVE" ? p.productive : p.overall;
    };
    const points: [number, number][] = [[0, value()]];
    for (const { id, point } of steps) {
      current.set(id, point);
      points.push([points.length, value()]);
    }
    return points;
  }

  /** The users with practice recorded on a drill or course (any of a course's drills), by ID. */
  practisingUsers(record: DrillableRecord): string[] {
    const ids = record.type === "DRILL" ? [record.id] : record.drillIds;
    const users: string[] = [];
    for (const [userId, perUser] of this.#renditions)
      if (ids.some((id) => perUser.has(id))) users.push(userId);
    return users.sort();
  }

  #accessible(userId: string, drillableId: string): DrillableRecord {
    const record = this.#ctx.drillable(drillableId);
    if (record === undefined) {
      throw domainRefusal(
        "drillable_not_found",
        `drillable: no drill or course with ID "${drillableId}"`,
        "drillable",
      );
    }
    if (!this.#ctx.canAccess(userId, record)) {
      throw domainRefusal(
        "drillable_access_denied",
        `drillable: the user may not use "${drillableId}"`,
        "drillable",
      );
    }
    return record;
  }

  #drillsOfCourse(ids: readonly string[]): Drill[] {
    const drills: Drill[] = [];
    for (const id of ids) {
      const record = this.#ctx.drillable(id);
      if (record?.type === "DRILL") drills.push(record);
    }
    return drills;
  }

  /** `drills` must be sorted by ID (see `nextQuestion`), so the signature does not depend on request order. */
  #session(userId: string, sortedIds: readonly string[], drills: readonly Drill[]): Session {
    const key = `${userId}\u0000${sortedIds.join("\u0000")}`;
    const signature = drills.map((drill) => `${drill.id}:${drill.items.length}`).join("\u0000");
    let session = this.#sessions.get(key);
    if (session === undefined) {
      session = {
        sequenceNr: 0,
        rng: new Prng(hashString(`${this.#seed}\u0000${key}`)),
        signature,
        deck: [],
        position: 0,
      };
      if (this.#sessions.size >= MAX_SESSIONS)
        this.#sessions.delete(this.#sessions.keys().next().value as string);
    } else {
      // Re-inserting moves the session to the end of the map's order, so the first key is the least
      // recently used one.
      this.#sessions.delete(key);
    }
    this.#sessions.set(key, session);
    if (session.signature !== signature) {
      session.signature = signature;
      session.deck = [];
      session.position = 0;
    }
    return session;
  }

  #deal(session: Session, drills: readonly Drill[]): void {
    const last = session.deck[session.deck.length - 1];
    const deck: { drill: number; item: number }[] = [];
    drills.forEach((drill, d) => {
      for (let i = 0; i < drill.items.length; i++) deck.push({ drill: d, item: i });
    });
    session.rng.shuffle(deck);
    // Avoid asking the same item twice in a row across a new deal.
    const first = deck[0];
    if (last !== undefined && first !== undefined && deck.length > 1) {
      if (first.drill === last.drill && first.item === last.item) {
        deck[0] = deck[1] as { drill: number; item: number };
        deck[1] = first;
      }
    }
    session.deck = deck;
    session.position = 0;
  }

  #remember(reference: string, question: OpenQuestion): void {
    this.#open.set(reference, question);
    // Maps iterate in insertion order, so the first key is the oldest reference.
    while (this.#open.size > this.#maxOpen) {
      const oldest = this.#open.keys().next().value as string;
      this.#open.delete(oldest);
    }
  }

  #record(userId: string, drillId: string, correct: boolean): void {
    let perUser = this.#renditions.get(userId);
    if (perUser === undefined) {
      perUser = new Map();
      this.#renditions.set(userId, perUser);
    }
    let state = perUser.get(drillId);
    if (state === undefined) {
      state = {
        answerCount: 0,
        correctCount: 0,
        receptive: 0,
        productive: 0,
        highest: { receptive: 0, productive: 0, overall: 0 },
        start: { receptive: 0, productive: 0 },
        history: [],
      };
      perUser.set(drillId, state);
    }
    const score = correct ? 100 : 0;
    state.answerCount++;
    if (correct) state.correctCount++;
    state.receptive += PROFICIENCY_RATES.receptive * (score - state.receptive);
    state.productive += PROFICIENCY_RATES.productive * (score - state.productive);
    state.highest = maxProficiency(state.highest, toProficiency(state.receptive, state.productive));
    state.lastPracticed = this.#ctx.now();
    state.history.push({ seq: ++this.#answerSeq, receptive: state.receptive, productive: state.productive });
  }

  /** The latest answer's time on the drill (for a course: on any of its drills), if one was recorded. */
  #lastPracticed(userId: string, record: DrillableRecord): string | undefined {
    const perUser = this.#renditions.get(userId);
    const ids = record.type === "DRILL" ? [record.id] : record.drillIds;
    let latest: string | undefined;
    for (const id of ids) {
      const at = perUser?.get(id)?.lastPracticed;
      if (at !== undefined && (latest === undefined || at > latest)) latest = at;
    }
    return latest;
  }

  #summary(
    userId: string,
    record: DrillableRecord,
  ): { answerCount: number; correctCount: number; proficiency: Proficiency; highest: Proficiency } {
    const perUser = this.#renditions.get(userId);
    if (record.type === "DRILL") {
      const state = perUser?.get(record.id);
      if (state === undefined) return zeroSummary();
      return {
        answerCount: state.answerCount,
        correctCount: state.correctCount,
        proficiency: toProficiency(state.receptive, state.productive),
        highest: state.highest,
      };
    }
    return this.#combined(userId, record.drillIds);
  }

  /** Counts summed and proficiency values averaged over drills (unpractised ones count as 0). */
  #combined(
    userId: string,
    ids: readonly string[],
  ): { answerCount: number; correctCount: number; proficiency: Proficiency; highest: Proficiency } {
    const perUser = this.#renditions.get(userId);
    const drillIds = [...new Set(ids)].filter((id) => this.#ctx.drillable(id)?.type === "DRILL");
    if (drillIds.length === 0) return zeroSummary();
    let answerCount = 0;
    let correctCount = 0;
    let receptive = 0;
    let productive = 0;
    const highest = { receptive: 0, productive: 0, overall: 0 };
    for (const id of drillIds) {
      const state = perUser?.get(id);
      if (state === undefined) continue;
      answerCount += state.answerCount;
      correctCount += state.correctCount;
      receptive += state.receptive;
      productive += state.productive;
      highest.receptive += state.highest.receptive;
      highest.productive += state.highest.productive;
      highest.overall += state.highest.overall;
    }
    const n = drillIds.length;
    const proficiency = toProficiency(receptive / n, productive / n);
    const averageHighest = {
      receptive: Math.round(highest.receptive / n),
      productive: Math.round(highest.productive / n),
      overall: Math.round(highest.overall / n),
    };
    // Rounding the two averages separately could put the highest value one below the current one.
    return { answerCount, correctCount, proficiency, highest: maxProficiency(averageHighest, proficiency) };
  }
}

function zeroSummary() {
  const zero = { receptive: 0, productive: 0, overall: 0 };
  return { answerCount: 0, correctCount: 0, proficiency: zero, highest: zero };
}

/**
 * Evaluates given values against the expected terms: each given value is `CORRECT` the first time it
 * matches an expected term, otherwise `INCORRECT`; each expected term nobody gave is `MISSED`.
 */
export function evaluate(
  given: readonly string[],
  expected: readonly string[],
): AnswerResponse["evaluation"] {
  const remaining = new Set(expected);
  const termEvaluations: TermEvaluation[] = given.map((value) => {
    if (!remaining.delete(value)) return { value, result: "INCORRECT" };
    return { value, result: "CORRECT" };
  });
  for (const value of remaining) termEvaluations.push({ value, result: "MISSED" });
  const result = termEvaluations.every((t) => t.result === "CORRECT") ? "CORRECT" : "INCORRECT";
  return { result, termEvaluations };
}

function readAnswerValues(body: unknown): string[] {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw domainRefusal("answer_invalid", "answer: required form field (answer=<value>)", "answer");
  }
  const value = (body as { answer?: unknown }).answer;
  const values = typeof value === "string" ? [value] : value;
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string")) {
    throw domainRefusal(
      "answer_invalid",
      "answer: required form field, one value or the field repeated once per value",
      "answer",
    );
  }
  return values;
}
