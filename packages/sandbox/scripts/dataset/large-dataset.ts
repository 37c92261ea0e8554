/**
 * A large generated dataset for the benchmarks: drills whose names, subjects, tags, descriptions and
 * item terms are drawn from the curated word lists, so the file weighs what a user's data does (few
 * repeated items, many distinct strings) rather than a few thousand items repeated.
 */

import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { Prng } from "../../src/domain/random.js";
import type { Drill, DrillItem, SandboxData } from "../../src/domain/types.js";
import { DRILL_TYPE } from "../../src/domain/types.js";
import {
  COMPOUNDS,
  COUNTRIES,
  ELEMENTS,
  HISTORY,
  MOONS,
  MOUNTAINS,
  NAME_WORDS,
  PLANETS,
  RIVERS,
  SI_UNITS,
  VOCABULARY,
} from "./dataset-lists.js";
import { createDefaultDataset, DEFAULT_DATASET_SEED } from "./default-dataset.js";

/** Every term of the curated lists once: what generated names, tags, descriptions and items are drawn from. */
function termPool(): readonly string[] {
  const terms = new Set<string>();
  const add = (list: readonly (readonly (string | number)[])[]) => {
    for (const row of list) for (const term of row) if (typeof term === "string") terms.add(term);
  };
  for (const theme of VOCABULARY) add(theme.rows);
  for (const countries of Object.values(COUNTRIES)) add(countries);
  for (const theme of HISTORY) add(theme.events);
  for (const list of [RIVERS, MOUNTAINS, ELEMENTS, PLANETS, MOONS, SI_UNITS, COMPOUNDS]) add(list);
  return [...terms];
}

/** A drill drawn from the word lists around a curated template (whose subject and labels it keeps). */
class DrillDrawer {
  readonly #rng: Prng;
  readonly #terms = termPool();
  readonly #templates: readonly Drill[];
  readonly #width: number;

  constructor(rng: Prng, templates: readonly Drill[], drillCount: number) {
    this.#rng = rng;
    this.#templates = templates;
    this.#width = Math.max(6, String(drillCount).length);
  }

  #term(): string {
    return this.#terms[this.#rng.int(this.#terms.length)] as string;
  }

  /** `count` terms joined by spaces. */
  #phrase(count: number): string {
    const words: string[] = [];
    for (let k = 0; k < count; k++) words.push(this.#term());
    return words.join(" ");
  }

  drill(i: number): Drill {
    const rng = this.#rng;
    const template = this.#templates[rng.int(this.#templates.length)] as Drill;
    const word = NAME_WORDS[rng.int(NAME_WORDS.length)] as string;
    const tags = new Set([...template.tags, word]);
    for (let k = 1 + rng.int(2); k > 0; k--) tags.add(this.#term().toLowerCase());
    const items: DrillItem[] = [];
    // Each term drawn on its own, so almost every item of the file is a pair of its own.
    for (let k = 4 + rng.int(6); k > 0; k--) items.push({ ask: this.#term(), tell: this.#term() });
    return {
      id: `gen-${String(i).padStart(this.#width, "0")}`,
      type: DRILL_TYPE,
      name: `${template.name}, ${word} ${this.#term()} ${i + 1}`,
      subject: template.subject,
      description: `${this.#phrase(2 + rng.int(6))}, ${word} set ${i + 1}.`,
      tags: [...tags],
      inStore: true,
      askName: template.askName,
      tellName: template.tellName,
      items,
    };
  }
}

/**
 * A large dataset for benchmarks and speed tests: `drillCount` drills around the curated drills of the
 * default dataset (their subject, labels, name and tags kept, so the benchmark's searches find them),
 * each with a name word, tags, a description and 4 to 9 items drawn from the word lists; the default
 * users and organization, no courses, and one catalog holding every hundredth drill. About 570 bytes
 * of JSON a drill (57 MB at 100,000). Deterministic for a given count and seed.
 */
export function generateLargeDataset(drillCount: number, seed: number = DEFAULT_DATASET_SEED): SandboxData {
  if (!Number.isInteger(drillCount) || drillCount < 0) {
    throw new RangeError(`drillCount: must be a non-negative integer, got ${drillCount}`);
  }
  const base = createDefaultDataset(seed);
  const templates = base.drills.filter((drill) => drill.inStore && drill.items.length >= 6);
  const drawer = new DrillDrawer(new Prng(seed ^ 0x5bd1e995), templates, drillCount);
  const drills: Drill[] = [];
  for (let i = 0; i < drillCount; i++) drills.push(drawer.drill(i));
  const orgUsers = base.users.filter((u) => u.organizationId === DEFAULT_IDS.organization).map((u) => u.id);
  return {
    organizations: base.organizations,
    users: base.users,
    drills,
    courses: [],
    catalogs: [
      {
        id: "catalog-large-sample",
        name: "Every hundredth generated drill",
        drillableIds: drills.filter((_, i) => i % 100 === 0).map((d) => d.id),
        userIds: orgUsers,
      },
    ],
    groups: [],
  };
}
