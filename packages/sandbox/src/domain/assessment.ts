/**
 * Tests, test results, test tickets, group objectives, beacons, client apps and push devices as
 * records, beside the organization side (`state.org`). Kept in its own model so the families that
 * test and evaluate read and change one place; every method is synchronous, so each change is atomic.
 */
import { Relation, Table } from "./records.js";

/** A defined test: the drills it asks from, how, and who defined it. */
export interface TestRecord {
  readonly id: string;
  readonly name: string;
  readonly instructions: string;
  readonly drillIds: readonly string[];
  readonly direction: string;
  readonly style: "MULTIPLE_CHOICE" | "OPEN_ENDED";
  readonly disclosure: readonly string[];
  readonly allowQuestionNavigation: boolean;
  readonly allowUnansweredQuestions: boolean;
  /** Kept as sent; no answer shape of either version shows them (2.1 `defineTest` form only). */
  readonly tags?: readonly string[];
  readonly weights?: readonly number[];
  readonly adaptive?: boolean;
  readonly startDrill?: number;
  /** The time to complete the test, in seconds (2.1 `timeLimit`); answered as `remainingTestTime`. */
  readonly timeLimitSeconds?: number;
  /**
   * A group test's objective: the date to complete it by (POST group tests' `reviewDate`), or
   * `PER_USER`: each member gets a date of their own (the PUT group test pages; `testReviewDates`).
   */
  readonly reviewDate?: string;
  readonly ownerId: string;
  readonly created: string;
}

/** One question of a user's run of a test, with the answer once given. */
export interface TestQuestionRecord {
  readonly reference: string;
  readonly sequenceNr: number;
  readonly drillId: string;
  readonly ask: string;
  readonly askName: string;
  readonly tellName: string;
  readonly expected: string;
  readonly choices: readonly string[];
  /** An adaptive test's level (0-based index of its drill) and set (0-based), per the group tests page. */
  readonly level?: number;
  readonly set?: number;
  given?: readonly string[];
  correct?: boolean;
}

/** A user's result of a test: started on the first question, completed by the last answer (or by hand). */
export interface TestResultRecord {
  readonly testId: string;
  readonly userId: string;
  readonly started: string;
  completed?: string;
  readonly questions: TestQuestionRecord[];
}

/**
 * A ticket, or a PIN standing in for one, to an anonymous attempt at a test (the 2.1.1 POST test tickets
 * page): its `id` is the code or the PIN, unique among all tickets.
 */
export interface TestTicketRecord {
  readonly id: string;
  readonly testId: string;
  readonly kind: "CODE" | "PIN";
  /** The testee as the form describes them, kept as sent. */
  readonly name?: string;
  readonly emailAddress?: string;
  readonly reference?: string;
  readonly issuedBy: string;
  readonly issued: string;
}

/** A group objective: reach a proficiency on drills by a review date. */
export interface ObjectiveRecord {
  readonly id: string;
  readonly groupId: string;
  readonly type: "ONEOFF" | "PERMANENT";
  /**
   * The date the objective is reviewed for every member; none where each member gets their own (the
   * 2.1.1 POST group objectives page: "the review date must be omitted"; `objectiveReviewDates`).
   */
  readonly reviewDate?: string;
  /** The 2.1.1 form's `reviewDuration` (a review period ending at the review date): kept as sent. */
  readonly reviewDuration?: string;
  readonly minimumProficiency: number;
  /** The lower proficiency a met objective may fall to (2.1 form), where one was given. */
  readonly fallingMinimumProficiency?: number;
  /** The 2.1 form's name: kept, though no objective answer shows it. */
  readonly name?: string;
  readonly drillIds: readonly string[];
  readonly created: string;
}

/** A beacon definition of an organization. */
export interface BeaconRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly playableType: "DRILL" | "COURSE" | "TEST";
  readonly playableId: string;
  readonly proximity: string;
  readonly description?: string;
  readonly lingerDuration: string;
}

/** A client application registered by a user. */
export interface ClientAppRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly redirectionEndpoint: string;
  readonly url?: string;
  readonly secret: string;
  readonly creatorId: string;
  readonly created: string;
}

/** A device registered for push notifications (platform and address), by user. */
export interface PushDeviceRecord {
  readonly id: string;
  readonly userId: string;
  readonly platform: string;
  readonly address: string;
  readonly registered: string;
}

/** Group objectives as a data file gives them (see data/FORMAT.md). */
export interface ObjectiveData {
  readonly id: string;
  readonly groupId: string;
  readonly type?: "ONEOFF" | "PERMANENT";
  readonly reviewDate?: string;
  readonly minimumProficiency: number;
  readonly drillIds: readonly string[];
}

/** The records of this model; see the module comment. */
export class AssessmentModel {
  readonly tests = new Table<TestRecord>();
  /** test → user, with the user's result. */
  readonly results = new Relation<TestResultRecord>();
  /** group → test, with the date it was added. */
  readonly groupTests = new Relation<string>();
  readonly objectives = new Table<ObjectiveRecord>();
  /** objective → member, with the member's own review date (an objective defined without one). */
  readonly objectiveReviewDates = new Relation<string>();
  /** group test → member, with the member's own review date (a test defined with `PER_USER`). */
  readonly testReviewDates = new Relation<string>();
  /** Tickets and PINs to anonymous attempts, by code or PIN. */
  readonly tickets = new Table<TestTicketRecord>();
  readonly beacons = new Table<BeaconRecord>();
  readonly clientApps = new Table<ClientAppRecord>();
  readonly pushDevices = new Table<PushDeviceRecord>();
  /** question reference → its result and question (references are unique across tests and users). */
  readonly #questions = new Map<string, { result: TestResultRecord; question: TestQuestionRecord }>();

  constructor(objectives: readonly ObjectiveData[] = [], created = "2024-01-01T00:00:00.000Z") {
    for (const o of objectives) {
      this.objectives.put({
        id: o.id,
        groupId: o.groupId,
        type: o.type ?? "ONEOFF",
        ...(o.reviewDate === undefined ? {} : { reviewDate: o.reviewDate }),
        minimumProficiency: o.minimumProficiency,
        drillIds: [...o.drillIds],
        created,
      });
    }
  }

  /** Records a result's questions so their references can be answered. */
  startResult(result: TestResultRecord): TestResultRecord {
    this.results.set(result.testId, result.userId, result);
    for (const question of result.questions) this.#questions.set(question.reference, { result, question });
    return result;
  }

  /** Adds questions to a started result (an adaptive test's next set), so their references can be answered. */
  addQuestions(result: TestResultRecord, questions: readonly TestQuestionRecord[]): void {
    for (const question of questions) {
      result.questions.push(question);
      this.#questions.set(question.reference, { result, question });
    }
  }

  /** The result and question a reference names. */
  question(reference: string): { result: TestResultRecord; question: TestQuestionRecord } | undefined {
    return this.#questions.get(reference);
  }

  /**
   * Issues a ticket code (22 characters of URL-safe Base64, as long as the TestTicket page's example
   * code) or a six-digit PIN, unused by any other ticket.
   */
  issueTicket(ticket: Omit<TestTicketRecord, "id">): TestTicketRecord {
    let id: string;
    do id = ticket.kind === "PIN" ? randomPin() : randomCode();
    while (this.tickets.has(id));
    return this.tickets.put({ id, ...ticket });
  }

  /**
   * Forgets a user whose account was deleted: their test results (and the references of their
   * questions), their own review dates, and their push devices.
   */
  forgetUser(userId: string): void {
    for (const [testId, result] of this.results.leftsOf(userId)) {
      for (const question of result.questions) this.#questions.delete(question.reference);
      this.results.delete(testId, userId);
    }
    this.testReviewDates.deleteRight(userId);
    this.objectiveReviewDates.deleteRight(userId);
    for (const device of this.pushDevices.all())
      if (device.userId === userId) this.pushDevices.delete(device.id);
  }

  /** Forgets a group's tests and objectives (the group is gone). */
  forgetGroup(groupId: string): void {
    this.groupTests.deleteLeft(groupId);
    for (const o of this.objectives.all()) if (o.groupId === groupId) this.objectives.delete(o.id);
  }

  /** The group objectives in data-file form (for `snapshot()`). */
  objectiveData(): ObjectiveData[] {
    return this.objectives.all().map(({ created: _created, drillIds, ...rest }) => ({
      ...rest,
      drillIds: [...drillIds],
    }));
  }
}

/** 16 random bytes in URL-safe Base64 without padding: 22 characters. */
function randomCode(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Six random digits. */
function randomPin(): string {
  const [n] = globalThis.crypto.getRandomValues(new Uint32Array(1));
  return String((n ?? 0) % 1_000_000).padStart(6, "0");
}
