import type { Course, Drill, SandboxData } from "../../src/domain/types.js";
import { Refusal } from "../../src/refusal.js";

/** A small hand-made dataset whose search results can be worked out by hand. */
export function drill(
  id: string,
  name: string,
  subject: string,
  description: string,
  tags: string[],
  items: [string, string][],
  inStore = true,
): Drill {
  return {
    id,
    type: "DRILL",
    name,
    subject,
    description,
    tags,
    inStore,
    askName: "Ask",
    tellName: "Tell",
    items: items.map(([ask, tell]) => ({ ask, tell })),
  };
}

export const D1 = drill(
  "d1",
  "Spanish animals",
  "Spanish",
  "Common animals in Spanish",
  ["vocabulary", "animals"],
  [
    ["perro", "dog"],
    ["gato", "cat"],
    ["caballo", "horse"],
    ["vaca", "cow"],
    ["oveja", "sheep"],
    ["cerdo", "pig"],
  ],
);
export const D2 = drill(
  "d2",
  "French animals",
  "French",
  "Animals and pets",
  ["vocabulary", "animals"],
  [
    ["chien", "dog"],
    ["chat", "cat"],
    ["cheval", "horse"],
  ],
);
export const D3 = drill(
  "d3",
  "Spanish food",
  "Spanish",
  "Café and bread",
  ["food"],
  [
    ["café", "coffee"],
    ["pan", "bread"],
  ],
);
export const D4 = drill(
  "d4",
  "Capitals of Europe",
  "Geography",
  "Countries and their capitals",
  ["capitals", "europe"],
  [
    ["France", "Paris"],
    ["Spain", "Madrid"],
    ["Italy", "Rome"],
  ],
);
export const D5 = drill(
  "d5",
  "Rock and roll history",
  "Music",
  "Dates AND names",
  ["music"],
  [
    ["Elvis Presley's first hit", "1956"],
    ["The Beatles' first single", "1962"],
  ],
);
/** Not in the public store: reachable through catalog cat1 only. */
export const D6 = drill(
  "d6",
  "Secret Spanish words",
  "Spanish",
  "Staff only",
  ["vocabulary"],
  [["hola", "hello"]],
  false,
);
export const C1: Course = {
  id: "c1",
  type: "COURSE",
  name: "Spanish course",
  subject: "Spanish",
  description: "Learn Spanish animals and food",
  tags: ["course"],
  inStore: true,
  drillIds: ["d1", "d3"],
};

export function fixtureData(): SandboxData {
  return {
    organizations: [{ id: "org", name: "Org", serviceAccountId: "sa" }],
    users: [
      { id: "sa", name: "Service account", emails: [], thirdPartyIds: [], organizationId: "org" },
      {
        id: "u1",
        name: "User One",
        emails: ["one@example.test"],
        thirdPartyIds: ["ext-1"],
        organizationId: "org",
      },
      { id: "u2", name: "User Two", emails: ["two@example.test"], thirdPartyIds: [], organizationId: "org" },
      { id: "u3", name: "Outsider", emails: ["three@example.test"], thirdPartyIds: [] },
    ],
    drills: [D1, D2, D3, D4, D5, D6],
    courses: [C1],
    catalogs: [
      { id: "cat1", name: "Staff catalog", drillableIds: ["d6", "d1", "c1"], userIds: ["u1"] },
      { id: "cat2", name: "Geography catalog", drillableIds: ["d4"], userIds: ["u2"] },
    ],
    groups: [],
  };
}

/** What a domain refusal answers: the identifier it names, its status and parameter, and its message. */
export interface DomainRefusal {
  readonly id: string;
  readonly status: number | undefined;
  readonly parameter: string | undefined;
  readonly message: string;
}

/** Runs `run` and returns the domain refusal it throws; any other outcome fails the test. */
export function domainError(run: () => unknown): DomainRefusal {
  try {
    run();
  } catch (error) {
    if (error instanceof Refusal && error.refusal.kind === "named") {
      const { status, parameter, message } = error;
      return { id: error.refusal.id, status, parameter, message };
    }
    throw error;
  }
  throw new Error("expected a domain refusal");
}
