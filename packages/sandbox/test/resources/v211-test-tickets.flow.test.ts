/**
 * Tickets to anonymous tests through `@drill-practice/client/v2.1.1`. Pages followed: the 2.1.1 POST
 * test tickets page (…/api/2.1.1/endpoints/post-test-tickets: the optional form fields, "A 2.1.1
 * TestTicket object" as the answer, `sendAnnouncementEmail` needing an `emailAddress`) and the 2.1.1
 * TestTicket object page (…/api/2.1.1/objects/test-ticket/: `test` and `ticket`, "with either a code or
 * a PIN"). The page shows no errors: those checked here are the sandbox's choices (its README).
 */
import { describe, expect, it } from "vitest";
import { clientAs, start, startWithAnasGroup } from "../support/helpers.js";
import { refusal, v211Client } from "../support/version-clients.js";

/** A fresh sandbox in which Ana has defined a test of es-colours through 2.1.1. */
async function anaDefinesColours() {
  const sandbox = await start();
  const ana = await v211Client(sandbox, "u-ana");
  const defined = await ana.POST("/api/2.1.1/tests", {
    body: { drills: ["es-colours"], name: "Final exam" },
  });
  expect(defined.response.status).toBe(200);
  return { sandbox, ana, test: (defined.data as { id: string }).id };
}

describe("2.1.1 test tickets (POST test tickets and TestTicket object pages)", () => {
  it("issues a ticket code with the test's summary, a different one each time", async () => {
    const { ana, test } = await anaDefinesColours();
    const ask = () =>
      ana.POST("/api/2.1.1/test/{test}/tickets", {
        params: { path: { test } },
        body: { name: "John Doe", emailAddress: "john@example.com", reference: "test023" },
      });
    const first = await ask();
    expect(first.response.status).toBe(200);
    expect(first.data?.test).toEqual({ type: "TEST", id: test, name: "Final exam" });
    const code = first.data?.ticket.code;
    expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.data?.ticket.pin).toBeUndefined();
    const second = await ask();
    expect(second.data?.ticket.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.data?.ticket.code).not.toBe(code);
  });

  it("answers a PIN instead of a code with generatePin, and takes no form at all", async () => {
    const { ana, test } = await anaDefinesColours();
    const pinned = await ana.POST("/api/2.1.1/test/{test}/tickets", {
      params: { path: { test } },
      body: { generatePin: true },
    });
    expect(pinned.response.status).toBe(200);
    expect(pinned.data?.ticket.pin).toMatch(/^[0-9]{6}$/);
    expect(pinned.data?.ticket.code).toBeUndefined();
    const bare = await ana.POST("/api/2.1.1/test/{test}/tickets", { params: { path: { test } } });
    expect(bare.data?.ticket.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("lets staff of a group the test is in issue tickets, and refuses everyone else", async () => {
    const { sandbox, sa, group } = await startWithAnasGroup();
    const made = await sa("POST", `/api/2.1/group/${group.id}/tests`, {
      body: { drills: ["es-colours"], name: "Colours check" },
    });
    const test = (made.body as { id: string }).id;
    const staff = await v211Client(sandbox);
    const issued = await staff.POST("/api/2.1.1/test/{test}/tickets", { params: { path: { test } } });
    expect(issued.data?.test).toMatchObject({ id: test, name: "Colours check" });

    // Ana is a member who may take the test, not read its results: she issues no tickets.
    const member = await v211Client(sandbox, "u-ana");
    const denied = await member.POST("/api/2.1.1/test/{test}/tickets", { params: { path: { test } } });
    expect(refusal(denied)).toEqual({ status: 403, id: "no_permission" });
    const unknown = await staff.POST("/api/2.1.1/test/{test}/tickets", {
      params: { path: { test: "no-such-test" } },
    });
    expect(refusal(unknown)).toEqual({ status: 404, id: "not_found" });
  });

  it("needs an email address to announce the ticket, and a valid one when given", async () => {
    const { ana, test } = await anaDefinesColours();
    const post = (body: { emailAddress?: string; sendAnnouncementEmail?: boolean }) =>
      ana.POST("/api/2.1.1/test/{test}/tickets", { params: { path: { test } }, body });
    expect(refusal(await post({ sendAnnouncementEmail: true }))).toEqual({
      status: 400,
      id: "email_address_missing",
    });
    expect(refusal(await post({ emailAddress: "john at example" }))).toEqual({
      status: 400,
      id: "invalid_email_address",
    });
    const announced = await post({ sendAnnouncementEmail: true, emailAddress: "john@example.com" });
    expect(announced.response.status).toBe(200);
  });

  it("keeps the ticket: the 2.0 ticket form names it as issued, yet starts no anonymous attempt", async () => {
    const { sandbox, ana, test } = await anaDefinesColours();
    const issued = await ana.POST("/api/2.1.1/test/{test}/tickets", { params: { path: { test } } });
    const code = issued.data?.ticket.code ?? "";
    const raw = await clientAs(sandbox, "u-ana");
    const known = await raw("GET", `/api/2/test-question/${test}/${code}`);
    expect(known.status).toBe(400);
    expect(known.body).toMatchObject({ ID: "invalid_ticket", description: expect.stringContaining("2.1.1") });
    const other = await raw("GET", `/api/2/test-question/${test}/made-up-ticket`);
    expect(other.body).toMatchObject({
      ID: "invalid_ticket",
      description: expect.stringContaining("not set up"),
    });
  });
});
