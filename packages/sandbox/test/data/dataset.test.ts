import { afterEach, describe, expect, it, vi } from "vitest";
import { createDefaultDataset } from "../../scripts/dataset/default-dataset.js";
import { generateLargeDataset } from "../../scripts/dataset/large-dataset.js";
import { parseDataFile } from "../../src/data/data-file.js";
import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { createState } from "../../src/domain/state.js";
import { domainError } from "../support/domain-data.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("createDefaultDataset", () => {
  const data = createDefaultDataset();

  // The sizes and subjects below are the ones the sandbox README and DEFAULT_IDS promise users.
  it("has the promised size and parts", () => {
    expect(data.drills).toHaveLength(300);
    expect(data.courses).toHaveLength(20);
    expect(data.catalogs).toHaveLength(3);
    expect(data.organizations).toHaveLength(1);
    expect(data.groups).toHaveLength(1);
    const org = data.organizations[0];
    expect(org?.serviceAccountId).toBe(DEFAULT_IDS.serviceAccount);
    const managed = data.users.filter((u) => u.organizationId === org?.id && u.id !== org?.serviceAccountId);
    expect(managed).toHaveLength(5);
    for (const user of managed) {
      expect(user.emails.length).toBeGreaterThan(0);
      expect(user.thirdPartyIds.length).toBeGreaterThan(0);
    }
    expect(data.users.filter((u) => u.organizationId === undefined).map((u) => u.id)).toEqual([
      DEFAULT_IDS.users.olivia,
    ]);
    expect(new Set(data.drills.map((d) => d.subject))).toEqual(
      new Set([
        "Spanish",
        "French",
        "German",
        "Dutch",
        "Geography",
        "Chemistry",
        "Astronomy",
        "Physics",
        "History",
        "Mathematics",
      ]),
    );
  });

  it("is a valid data file (unique IDs, working references)", () => {
    expect(parseDataFile(JSON.stringify(data))).toEqual(data);
  });

  it("offers each drill's right answer among min(4, its distinct answers) different choices", () => {
    // A question offers the right answer plus up to three other answers of the same drill
    // (packages/sandbox/README.md, practice); so a drill's choice count follows from its own items.
    const CHOICES = 4;
    const state = createState(data);
    for (const drill of data.drills) {
      const answers = new Set(drill.items.map((item) => item.tell));
      const { question } = state.nextQuestion(DEFAULT_IDS.users.ana, [drill.id]);
      const offered = (question.tell?.terms ?? []).map((term) => term.value);
      const asked = drill.items.filter((item) => item.ask === question.ask?.term?.value);
      expect(asked.length, `${drill.id}: the asked term is one of its items`).toBeGreaterThan(0);
      expect(offered, `${drill.id}: distinct choices`).toHaveLength(new Set(offered).size);
      expect(offered.length, drill.id).toBe(Math.min(CHOICES, answers.size));
      expect(
        asked.some((item) => offered.includes(item.tell)),
        `${drill.id}: right answer offered`,
      ).toBe(true);
      for (const value of offered) expect(answers.has(value ?? ""), `${drill.id}: ${value}`).toBe(true);
      // Fewer than three choices would make a question a coin toss; the dataset never builds such a drill.
      expect(answers.size, `${drill.id}: distinct answers`).toBeGreaterThanOrEqual(3);
      expect(drill.name.trim()).not.toBe("");
      expect(drill.description.trim()).not.toBe("");
      expect(drill.tags.length).toBeGreaterThan(0);
    }
  });

  it("holds real facts", () => {
    const items = (id: string) => data.drills.find((d) => d.id === id)?.items ?? [];
    expect(items("es-animals-to-en")).toContainEqual({ ask: "el perro", tell: "dog" });
    expect(items("de-food-from-en")).toContainEqual({ ask: "cheese", tell: "der Käse" });
    expect(items("nl-colours-to-en")).toContainEqual({ ask: "groen", tell: "green" });
    expect(items("fr-verbs-from-en")).toContainEqual({ ask: "to eat", tell: "manger" });
    expect(items("geo-capitals-europe")).toContainEqual({ ask: "Netherlands", tell: "Amsterdam" });
    expect(items("chem-elements-21-40-symbols")).toContainEqual({ ask: "Iron", tell: "Fe" });
    expect(items("chem-elements-101-118-numbers")).toContainEqual({ ask: "Oganesson", tell: "118" });
    expect(items("math-times-7")).toContainEqual({ ask: "7 × 8", tell: "56" });
    expect(items("math-to-roman")).toContainEqual({ ask: "1999", tell: "MCMXCIX" });
    expect(items("hist-all-centuries")).toContainEqual({
      ask: "Fall of the Berlin Wall",
      tell: "20th century",
    });
    expect(items("hist-medieval-centuries")).toContainEqual({
      ask: "Battle of Hastings",
      tell: "11th century",
    });
    expect(items("astro-planet-order")).toContainEqual({ ask: "Earth", tell: "3rd" });
  });

  it("is the same on every call and never uses Math.random", () => {
    const random = vi.spyOn(Math, "random").mockImplementation(() => {
      throw new Error("Math.random must not be used");
    });
    expect(createDefaultDataset()).toEqual(data);
    expect(JSON.stringify(createDefaultDataset())).toBe(JSON.stringify(data));
    expect(random).not.toHaveBeenCalled();
    expect(createDefaultDataset(7)).not.toEqual(data);
  });

  it("sets up access as described", () => {
    const state = createState(data);
    const { users, catalogs, serviceAccount } = DEFAULT_IDS;
    // A catalog listing shows every drillable the catalog holds, to a user it names.
    const size = (id: string) => data.catalogs.find((catalog) => catalog.id === id)?.drillableIds.length;
    expect(state.searchStore(serviceAccount, { catalog: catalogs.business }).total).toBe(
      size(catalogs.business),
    );
    expect(state.searchStore(users.olivia, { catalog: catalogs.partner }).total).toBe(size(catalogs.partner));
    const denied = domainError(() => state.searchStore(serviceAccount, { catalog: catalogs.partner }));
    expect(denied).toMatchObject({ id: "catalog_access_denied", status: 403 });
    // Business drills are catalog-only.
    expect(state.searchStore(users.ana, { query: "business" }).total).toBe(0);
    expect(state.nextQuestion(users.ana, ["es-business-to-en"]).question.sequenceNr).toBe(1);
    expect(state.resolveTokenSubject(serviceAccount, "ana.garcia@academy.example")?.id).toBe(users.ana);
    expect(state.resolveTokenSubject(serviceAccount, "hr-1004")?.id).toBe(users.dieter);
    expect(state.resolveTokenSubject(serviceAccount, "olivia@partner-school.example")).toBeUndefined();
  });
});

describe("generateLargeDataset", () => {
  it("makes exactly n drills with unique IDs, the same every time", () => {
    const random = vi.spyOn(Math, "random").mockImplementation(() => {
      throw new Error("Math.random must not be used");
    });
    const a = generateLargeDataset(2_000);
    const b = generateLargeDataset(2_000);
    expect(random).not.toHaveBeenCalled();
    expect(a).toEqual(b);
    expect(a.drills).toHaveLength(2_000);
    expect(new Set(a.drills.map((d) => d.id)).size).toBe(2_000);
    expect(a.drills[0]?.id).toBe("gen-000000");
    expect(a.catalogs[0]?.drillableIds).toHaveLength(20);
    expect(parseDataFile(JSON.stringify(a)).drills).toHaveLength(2_000);
    expect(generateLargeDataset(2_000, 9)).not.toEqual(a);
  });

  // Issue #48: the bench's 100,000-drill file must weigh what users' files weigh (about 57 MB of
  // names, tags, descriptions and item terms drawn from word lists), or its start-up figure hides the
  // cost of a realistic file; and its items must mostly differ, as a user's do.
  it("writes a data file of about 57 MB at 100,000 drills, items mostly distinct", () => {
    const data = generateLargeDataset(100_000);
    const bytes = Buffer.byteLength(JSON.stringify({ formatVersion: 1, ...data }));
    expect(bytes).toBeGreaterThan(56_000_000);
    expect(bytes).toBeLessThan(59_000_000);
    const items = data.drills.flatMap((drill) => drill.items.map((item) => `${item.ask}\u0000${item.tell}`));
    expect(new Set(items).size).toBeGreaterThan(items.length * 0.8);
    expect(data.drills.filter((drill) => drill.tags.includes("spanish")).length).toBeGreaterThan(5_010);
  }, 60_000);

  it("handles the edges", () => {
    expect(generateLargeDataset(0).drills).toEqual([]);
    expect(() => generateLargeDataset(-1)).toThrow(RangeError);
    expect(() => generateLargeDataset(1.5)).toThrow(RangeError);
  });
});
