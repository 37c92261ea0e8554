/**
 * State a user can hold: `snapshot()`, `restore(snapshot)` and `reset()` on the handle, and the same
 * over HTTP under `/__sandbox/state`.
 */
import { describe, expect, it } from "vitest";
import { DataFileError } from "../../src/index.js";
import { client, EVENING_CLASS, SMALL_DATA, start, tokenFor } from "../support/helpers.js";

const WITH_CLASS = { ...SMALL_DATA, groups: [EVENING_CLASS] };

/** Answers one question of a drill for a user, right. */
async function answerOnce(api: ReturnType<typeof client>, drillId: string): Promise<void> {
  const asked = await api("GET", `/api/2/question/${drillId}`);
  const question = (asked.body as { question: { reference: string; ask: { term: { value: string } } } })
    .question;
  const item = SMALL_DATA.drills
    .find((d) => d.id === drillId)
    ?.items.find((i) => i.ask === question.ask.term.value);
  const answered = await api("PUT", `/api/2/answer/${encodeURIComponent(question.reference)}`, {
    body: { answer: item?.tell ?? "" },
  });
  expect(answered.status).toBe(200);
}

describe("holding the state", () => {
  it("restore(snapshot) brings back a deleted group, its members and its drills", async () => {
    const sandbox = await start({ data: WITH_CLASS });
    const sa = client(sandbox, await tokenFor(sandbox));
    expect((await sa("PUT", "/api/2.1/group/g-class/drills/es-animals")).status).toBe(200);
    const held = sandbox.snapshot();

    expect((await sa("DELETE", "/api/2.1/groups/g-class")).status).toBe(200);
    expect((await sa("GET", "/api/2.1/group/g-class")).status).toBe(404);

    sandbox.restore(held);
    const group = await sa("GET", "/api/2.1/group/g-class");
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ id: "g-class", name: "Class" });
    const members = await sa("GET", "/api/2.1/group/g-class/members");
    expect(
      (members.body as { members: { member: { id: string } }[] }).members.map((m) => m.member.id),
    ).toEqual(["u-ana"]);
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    expect((await ana("GET", "/api/2.1/question/es-animals")).status).toBe(200);
  });

  it("reset() drops every change: a created group, a created drill, practice done", async () => {
    const sandbox = await start({ data: WITH_CLASS });
    const sa = client(sandbox, await tokenFor(sandbox));
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    const created = await sa("POST", "/api/2.1/groups", { body: { name: "New", description: "d" } });
    const id = (created.body as { id: string }).id;
    await answerOnce(ana, "es-colours");
    const drill = await ana("POST", "/api/2.1/drills", {
      body: { name: "Zebra words", subject: "Zulu", description: "d" },
    });
    expect(drill.status).toBe(200);
    const drillId = (drill.body as { id: string }).id;
    expect((await ana("GET", `/api/2.1/playable/${drillId}`)).status).toBe(200);
    expect(sandbox.snapshot().practice).toMatchObject([
      { userId: "u-ana", drillId: "es-colours", answerCount: 1 },
    ]);
    expect(sandbox.snapshot().groups.map((g) => g.id)).toEqual(["g-class", id]);

    sandbox.reset();
    expect((await sa("GET", `/api/2.1/group/${id}`)).status).toBe(404);
    expect(sandbox.snapshot().practice).toBeUndefined();
    expect(sandbox.snapshot().drills.map((d) => d.id)).not.toContain(drillId);
    expect((await ana("GET", `/api/2.1/playable/${drillId}`)).status).toBe(404);
    const search = await ana("GET", "/api/2.1/store?query=colours");
    const drills = (search.body as { drills: { id: string; practice?: unknown }[] }).drills;
    expect(drills.find((d) => d.id === "es-colours")).toBeDefined();
    expect(drills.find((d) => d.id === "es-colours")?.practice).toBeUndefined();
    // The token issued before the reset still works: tokens are not data.
    expect((await sa("GET", "/api/2.1/group/g-class")).status).toBe(200);
  });

  it("snapshots as a data file: saved as JSON, it starts an equal sandbox", async () => {
    const sandbox = await start({ data: WITH_CLASS });
    const ana = client(sandbox, await tokenFor(sandbox, "u-ana"));
    await answerOnce(ana, "es-animals");
    const saved = JSON.stringify(sandbox.snapshot());
    const again = await start({ data: JSON.parse(saved) });
    expect(again.snapshot()).toEqual(sandbox.snapshot());
    const search = await client(again, await tokenFor(again, "u-ana"))("GET", "/api/2.1/store?query=animals");
    const drills = (search.body as { drills: { id: string; practice?: unknown }[] }).drills;
    expect(drills.find((d) => d.id === "es-animals")?.practice).toBeDefined();
  });

  it("refuses data that is not a valid data file, or of other organizations, and keeps the current data", async () => {
    const sandbox = await start({ data: WITH_CLASS });
    const before = sandbox.snapshot();
    const broken = { ...before, groups: [{ ...EVENING_CLASS, memberIds: ["u-nobody"] }] };
    expect(() => sandbox.restore(broken)).toThrow(DataFileError);
    expect(() => sandbox.restore(broken)).toThrow(/\$\.groups\[0\]\.memberIds\[0\]/);
    const otherOrg = {
      ...before,
      organizations: [{ id: "org-2", name: "Other", serviceAccountId: "sa-1" }],
      users: before.users.map((u) => (u.organizationId === "org-1" ? { ...u, organizationId: "org-2" } : u)),
      groups: before.groups.map((g) => ({ ...g, organizationId: "org-2" })),
    };
    expect(() => sandbox.restore(otherOrg)).toThrow(
      /must be the organizations the sandbox started with \("org-1"\)/,
    );
    expect(sandbox.snapshot()).toEqual(before);
  });

  it("resets the built-in dataset in under 5 ms (median of 21 runs)", async () => {
    const sandbox = await start({ data: undefined });
    const sa = client(sandbox, await tokenFor(sandbox));
    const times: number[] = [];
    for (let run = 0; run < 21; run++) {
      // A change each time, so every reset has something to undo.
      expect(
        (await sa("POST", "/api/2.1/groups", { body: { name: `G${run}`, description: "d" } })).status,
      ).toBe(200);
      const started = performance.now();
      sandbox.reset();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    expect(times[10]).toBeLessThan(5);
    expect(sandbox.snapshot().groups.map((g) => g.name)).not.toContain("G20");
  });

  it("is held over HTTP under /__sandbox/state: GET snapshots, PUT restores, DELETE resets", async () => {
    const sandbox = await start({ data: WITH_CLASS });
    const sa = client(sandbox, await tokenFor(sandbox));
    const admin = client(sandbox, undefined);
    const held = await admin("GET", "/__sandbox/state");
    expect(held.status).toBe(200);
    expect(held.body).toEqual(sandbox.snapshot());

    expect((await sa("DELETE", "/api/2.1/groups/g-class")).status).toBe(200);
    expect((await admin("PUT", "/__sandbox/state", { json: held.body })).status).toBe(204);
    expect((await sa("GET", "/api/2.1/group/g-class")).status).toBe(200);

    expect((await sa("DELETE", "/api/2.1/groups/g-class")).status).toBe(200);
    expect((await admin("DELETE", "/__sandbox/state")).status).toBe(204);
    expect((await sa("GET", "/api/2.1/group/g-class")).status).toBe(200);

    const bad = await admin("PUT", "/__sandbox/state", {
      json: { ...(held.body as object), drills: "none" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      ID: "invalid_request",
      problems: expect.arrayContaining([
        { path: "$.drills", message: 'must be an array, got string "none"' },
      ]),
    });
    const wrongMethod = await admin("POST", "/__sandbox/state", { json: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("GET, PUT, DELETE");
  });
});
