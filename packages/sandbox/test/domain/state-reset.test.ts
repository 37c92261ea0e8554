/**
 * `reset()` and `restore()` of the state: the search index built at the start is shared until the
 * first change and copied then, so a reset is cheap and never sees a change made before it.
 */
import { describe, expect, it } from "vitest";
import { createState } from "../../src/domain/state.js";
import { D1, drill, fixtureData } from "../support/domain-data.js";

const ZEBRA = drill("d-zebra", "Zebra stripes", "Zoology", "Stripes", ["zebra"], [["stripe", "Streifen"]]);

function found(state: ReturnType<typeof createState>, query: string): string[] {
  return state.searchStore("u1", { query }).drills.map((d) => d.id);
}

describe("state reset and restore", () => {
  it("forgets added, changed and deleted drills on reset, cycle after cycle", () => {
    const state = createState(fixtureData());
    const before = found(state, "spanish");
    expect(before).toContain(D1.id);
    for (let cycle = 0; cycle < 3; cycle++) {
      state.upsertDrill(ZEBRA);
      state.upsertDrill({ ...D1, name: "Renamed", tags: [], description: "", subject: "Other" });
      expect(found(state, "zebra")).toEqual([ZEBRA.id]);
      expect(found(state, "spanish")).not.toContain(D1.id);
      state.reset();
      expect(found(state, "zebra")).toEqual([]);
      expect(found(state, "spanish")).toEqual(before);
    }
    state.deleteDrillable(D1.id);
    expect(found(state, "spanish")).not.toContain(D1.id);
    state.reset();
    expect(found(state, "spanish")).toEqual(before);
  });

  it("restores a snapshot with its own index, and resets from it to the start", () => {
    const state = createState(fixtureData());
    state.upsertDrill(ZEBRA);
    const held = state.snapshot();
    state.reset();
    state.restore(held);
    expect(found(state, "zebra")).toEqual([ZEBRA.id]);
    state.reset();
    expect(found(state, "zebra")).toEqual([]);
  });
});
