/**
 * The organization side of the service, tested offline: `class-roster.ts` runs through the real
 * client and service-account auth against the sandbox's default dataset, once in process
 * (`createSandbox().fetch`) and once over HTTP (`startSandbox`), with every answer checked against
 * the description (`validateResponses`). The errors a team handles arrive as `DrillApiError`s carrying
 * the identifiers and statuses of the reference pages.
 */
import { serviceAccountAuth } from "@drill-practice/auth";
import { createDrillClient, DrillApiError, type DrillClient, unwrap } from "@drill-practice/client";
import { createSandbox, DEFAULT_IDS, type Sandbox, startSandbox } from "@drill-practice/sandbox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addViewer, closeClass, openClass, roster } from "./class-roster.ts";

type Door = Pick<Sandbox, "url" | "credentials" | "responseViolations" | "close"> & { fetch?: typeof fetch };

const doors: Record<string, () => Promise<Door>> = {
  "in process": () => createSandbox({ validateResponses: true }),
  "over HTTP": () => startSandbox({ port: 0, host: "127.0.0.1", validateResponses: true }),
};

const { users } = DEFAULT_IDS;

describe.each(Object.entries(doors))("a class, %s", (_door, open) => {
  let sandbox: Door;
  beforeEach(async () => {
    sandbox = await open();
  });
  afterEach(async () => {
    expect(sandbox.responseViolations).toEqual([]);
    await sandbox.close();
  });

  /** A client acting for `subject` (default: the service account itself). */
  function clientFor(subject?: string): DrillClient {
    const keyFile = sandbox.credentials.keyFile();
    if (!keyFile) throw new Error("the default dataset's organization has a key pair");
    const fetch = sandbox.fetch;
    return createDrillClient({
      baseUrl: sandbox.url,
      ...(fetch ? { fetch } : {}),
      auth: serviceAccountAuth({
        key: JSON.stringify(keyFile),
        clientId: sandbox.credentials.clientId,
        clientSecret: sandbox.credentials.clientSecret,
        ...(subject ? { subject } : {}),
        ...(fetch ? { fetch } : {}),
      }),
    });
  }

  it("opens a class, shows it in both versions, lets a teacher see it, and closes it", async () => {
    const school = clientFor();
    const groupId = await openClass(school, {
      name: "Spanish A2 class",
      description: "Thursday mornings",
      drillId: "es-food-to-en",
      members: [users.bram, "ana.garcia@academy.example"],
    });

    const listed = await unwrap(school.GET("/api/2.1/groups", { params: { query: { query: "A2" } } }));
    expect(listed.groups?.map((group) => group.id)).toEqual([groupId]);
    // The 2.0 list of members over the same state, in joining order (the sandbox's documented choice).
    expect(await roster(school, groupId)).toEqual({
      name: "Spanish A2 class",
      members: ["Bram de Vries", "Ana García"],
    });
    const drillables = await unwrap(
      school.GET("/api/2.1/group/{group}/drillables", { params: { path: { group: groupId } } }),
    );
    expect(drillables.drillables?.map((drillable) => drillable.id)).toEqual(["es-food-to-en"]);

    // Emma teaches the default class; she cannot see this one until she is given VIEW on it. (Dieter
    // could: he is on the organization's staff, which reaches every group of the organization.)
    const emma = clientFor(users.emma);
    const hidden = await emma.GET("/api/2.1/group/{group}", { params: { path: { group: groupId } } });
    expect(hidden.response.status).toBe(403);
    expect(await addViewer(school, groupId, users.emma)).toEqual([`${users.emma}:VIEW`]);
    const seen = await unwrap(emma.GET("/api/2.1/group/{group}", { params: { path: { group: groupId } } }));
    expect(seen).toMatchObject({ id: groupId, name: "Spanish A2 class", description: "Thursday mornings" });

    await closeClass(school, groupId, users.emma);
    const gone = await school.GET("/api/2.1/group/{group}", { params: { path: { group: groupId } } });
    expect(gone.response.status).toBe(404);
  });

  it("answers the pages' own error identifiers: a missing field, an unknown ID, a missing permission", async () => {
    const school = clientFor();
    const refusal = async (call: Promise<unknown>) => {
      const error = await call.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(DrillApiError);
      const { status, errorId } = error as DrillApiError;
      return { status, errorId };
    };

    // The form field `description` is required by the create-group page; the types require it too, so
    // the cast stands for a caller whose form was filled at run time.
    const noDescription = unwrap(
      school.POST("/api/2.1/groups", {
        body: { name: "No description" } as { name: string; description: string },
      }),
    );
    expect(await refusal(noDescription)).toEqual({ status: 400, errorId: "description_missing" });

    const unknown = unwrap(
      school.GET("/api/2.1/group/{group}", { params: { path: { group: "group-none" } } }),
    );
    expect(await refusal(unknown)).toEqual({ status: 404, errorId: "not_found" });

    // Ana is a member of the default class, not its staff: she may not add members to it.
    const ana = clientFor(users.ana);
    const notStaff = unwrap(
      ana.PUT("/api/2.1/group/{group}/members/{user}", {
        params: { path: { group: DEFAULT_IDS.group, user: users.olivia } },
      }),
    );
    expect(await refusal(notStaff)).toEqual({ status: 403, errorId: "no_permission" });
  });
});
