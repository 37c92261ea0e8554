/**
 * A large generated dataset for the benchmarks: drills derived from the default dataset's drills.
 */

import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { Prng } from "../../src/domain/random.js";
import type { Drill, DrillItem, SandboxData } from "../../src/domain/types.js";
import { DRILL_TYPE } from "../../src/domain/types.js";
import { NAME_WORDS } from "./dataset-lists.js";
import { createDefaultDataset, DEFAULT_DATASET_SEED } from "./default-dataset.js";

/**
 * A large dataset for benchmarks and speed tests: `drillCount` drills derived from the curated drills
 * of the default dataset (renamed, with a different slice of items and an extra tag), the default users and organization, no
 * courses, and one catalog holding every hundredth drill. Deterministic for a given count and seed.
 */
export function generateLargeDataset(drillCount: number, seed: number = DEFAULT_DATASET_SEED): SandboxData {
  if (!Number.isInteger(drillCount) || drillCount < 0) {
    throw new RangeError(`drillCount: must be a non-negative integer, got ${drillCount}`);
  }
  const base = createDefaultDataset(seed);
  const templates = base.drills.filter((drill) => drill.inStore && drill.items.length >= 6);
  const rng = new Prng(seed ^ 0x5bd1e995);
  const width = Math.max(6, String(drillCount).length);
  const drills: Drill[] = [];
  for (let i = 0; i < drillCount; i++) {
    const template = templates[rng.int(templates.length)] as Drill;
    const word = NAME_WORDS[rng.int(NAME_WORDS.length)] as string;
    const size = Math.min(template.items.length, 6 + rng.int(10));
    const offset = rng.int(template.items.length);
    const items: DrillItem[] = [];
    for (let k = 0; k < size; k++)
      items.push(template.items[(offset + k) % template.items.length] as DrillItem);
    drills.push({
      id: `gen-${String(i).padStart(width, "0")}`,
      type: DRILL_TYPE,
      name: `${template.name}, ${word} ${i + 1}`,
      subject: template.subject,
      description: `${template.description} Generated ${word} set number ${i + 1}.`,
      tags: template.tags.includes(word) ? template.tags : [...template.tags, word],
      inStore: true,
      askName: template.askName,
      tellName: template.tellName,
      items,
    });
  }
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
