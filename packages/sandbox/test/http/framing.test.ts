import { describe, expect, it } from "vitest";
import { declaresFraming, SentRequest } from "../../src/http/sent-request.js";

describe("a request's framing", () => {
  it("is declared for any Request a fetch makes, whatever headers it shows (a browser shows no Content-Length)", () => {
    const request = new Request("https://sandbox.drill-practice.invalid/api/2.1/groups", { method: "POST" });
    expect(request.headers.has("content-length")).toBe(false);
    expect(declaresFraming(request)).toBe(true);
  });

  it("is missing only where the HTTP door saw a POST or PUT without Content-Length or chunked encoding", () => {
    const url = "http://127.0.0.1:4010/api/2.1/groups";
    const sent = { method: "POST", target: "/api/2.1/groups" };
    expect(declaresFraming(new SentRequest(url, { method: "POST" }, { ...sent, unframed: true }))).toBe(
      false,
    );
    expect(declaresFraming(new SentRequest(url, { method: "POST" }, sent))).toBe(true);
  });
});
