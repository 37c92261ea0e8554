/**
 * The authoring side of drills and courses: who wrote each one, when it was created and last edited,
 * and what users said about it (reviews, appreciations) and how they like to practise it
 * (preferences). The drills and courses themselves stay in `SandboxState` (search index, practice,
 * catalogs and groups read them there); this model holds what only the content family needs. Every
 * method is synchronous, so a handler's reads and writes are atomic.
 */
import { DATASET_DATE } from "./organization.js";
import { Relation, Table } from "./records.js";

/** Who authored a drill or course and when; records of the data file have none (nobody may edit them). */
export interface Authorship {
  readonly id: string;
  readonly authorId: string;
  /** ISO 8601 date-times. */
  readonly created: string;
  readonly lastEdited: string;
  /** The drill's audience language, as last set by an update. */
  readonly contentLanguage?: string;
}

/** A review a user posted for a drill or course. */
export interface ReviewRecord {
  readonly id: string;
  readonly drillableId: string;
  readonly userId: string;
  readonly content: string;
  readonly timestamp: string;
}

/** A user's practice preferences for one drill or course: only the attributes they stored. */
export interface PracticePreferences {
  readonly direction?: "BIDIRECTIONAL" | "PRODUCTIVE" | "RECEPTIVE";
  readonly style?: "MULTIPLE_CHOICE" | "OPEN_ENDED";
  readonly unknownColumns?: readonly string[];
  readonly useIntroductions?: boolean;
  readonly autoAdvancement?: boolean;
}

/** Authorship, reviews, appreciations and preferences; see the module comment. */
export class ContentModel {
  /** drill or course ID → who wrote it, for records created through the API. */
  readonly authorship = new Table<Authorship>();
  readonly reviews = new Table<ReviewRecord>();
  /** drill or course → user, with the appreciation (1 to 5) the user gave it. */
  readonly appreciations = new Relation<number>();
  /** drill or course → user, with the user's practice preferences for it. */
  readonly preferences = new Relation<PracticePreferences>();
  readonly now: () => string;

  constructor(now: () => string) {
    this.now = now;
  }

  /** The author of a drill or course, when it was created through the API. */
  authorOf(drillableId: string): string | undefined {
    return this.authorship.get(drillableId)?.authorId;
  }

  /** When a drill or course was last edited; the data file's date for records of the data file. */
  lastEdited(drillableId: string): string {
    return this.authorship.get(drillableId)?.lastEdited ?? DATASET_DATE;
  }

  /** Records that a user authored a new drill or course now. */
  authored(drillableId: string, authorId: string): Authorship {
    const now = this.now();
    return this.authorship.put({ id: drillableId, authorId, created: now, lastEdited: now });
  }

  /** Moves a record's `lastEdited` to now (and keeps other changes to its authorship). */
  edited(drillableId: string, change: { contentLanguage?: string } = {}): void {
    this.authorship.update(drillableId, { ...change, lastEdited: this.now() });
  }

  /** The reviews of a drill or course, oldest first. */
  reviewsOf(drillableId: string): ReviewRecord[] {
    return this.reviews.all().filter((review) => review.drillableId === drillableId);
  }

  /** The mean appreciation of a drill or course, or `undefined` when nobody gave one. */
  meanAppreciation(drillableId: string): number | undefined {
    const given = this.appreciations.rightsOf(drillableId).map(([, value]) => value);
    if (given.length === 0) return undefined;
    return given.reduce((sum, value) => sum + value, 0) / given.length;
  }

  /** Forgets everything about a deleted drill or course. */
  forget(drillableId: string): void {
    this.authorship.delete(drillableId);
    for (const review of this.reviewsOf(drillableId)) this.reviews.delete(review.id);
    this.appreciations.deleteLeft(drillableId);
    this.preferences.deleteLeft(drillableId);
  }
}
