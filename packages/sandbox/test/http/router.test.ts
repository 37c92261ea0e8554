import { describe, expect, it } from "vitest";
import { PathRouter } from "../../src/http/router.js";

function router(...templates: string[]) {
  const r = new PathRouter<string>();
  for (const t of templates) r.add(t, t);
  return r;
}

describe("PathRouter", () => {
  it("prefers a literal segment over a parameter, whatever the order added", () => {
    for (const r of [router("/store/{drill}", "/store/recent"), router("/store/recent", "/store/{drill}")]) {
      expect(r.match("/store/recent")).toMatchObject({ kind: "found", value: "/store/recent", params: {} });
      expect(r.match("/store/other")).toMatchObject({
        kind: "found",
        value: "/store/{drill}",
        params: { drill: "other" },
      });
    }
  });

  it("backtracks when the literal branch leads nowhere", () => {
    const r = router("/a/b/c", "/a/{x}/d");
    expect(r.match("/a/b/d")).toMatchObject({ kind: "found", value: "/a/{x}/d", params: { x: "b" } });
  });

  it("matches parameters inside a segment, before a bare parameter", () => {
    const r = router("/api/2/account-upgrade-{provider}", "/api/2/{anything}");
    expect(r.match("/api/2/account-upgrade-paypal")).toMatchObject({
      value: "/api/2/account-upgrade-{provider}",
      params: { provider: "paypal" },
    });
    expect(r.match("/api/2/other")).toMatchObject({ value: "/api/2/{anything}" });
  });

  it("decodes parameters with decodeURIComponent", () => {
    const r = router("/q/{id}");
    expect(r.match("/q/a%2Fb%20%C3%A9")).toMatchObject({ params: { id: "a/b é" } });
    expect(r.match("/q/%E0%A4%A")).toEqual({ kind: "bad_encoding", segment: "%E0%A4%A" });
  });

  it("needs every segment: no empty parameters, no extra or missing segments", () => {
    const r = router("/q/{id}", "/q");
    expect(r.match("/q/")).toEqual({ kind: "not_found" });
    expect(r.match("/q/a/b")).toEqual({ kind: "not_found" });
    expect(r.match("/q")).toMatchObject({ value: "/q" });
    expect(r.match("/")).toEqual({ kind: "not_found" });
  });

  it("keeps several parameters apart", () => {
    const r = router("/group/{group}/staff/{user}/{permission}");
    expect(r.match("/group/g1/staff/u2/admin")).toMatchObject({
      params: { group: "g1", user: "u2", permission: "admin" },
    });
  });
  it("takes the template with a literal segment over one whose parameters are named differently, in either order", () => {
    for (const templates of [
      ["/user/{third_party}/{third_party_id}", "/user/{user}/contract"],
      ["/user/{user}/contract", "/user/{third_party}/{third_party_id}"],
    ]) {
      const r = router(...templates);
      expect(r.match("/user/u1/contract")).toMatchObject({
        value: "/user/{user}/contract",
        params: { user: "u1" },
      });
      expect(r.match("/user/ACME/42")).toMatchObject({
        value: "/user/{third_party}/{third_party_id}",
        params: { third_party: "ACME", third_party_id: "42" },
      });
    }
  });
});
