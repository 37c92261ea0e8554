import { describe, expect, it } from "vitest";
import { fillMarkers } from "../src/page-markers.ts";
import { renderSiteHeader } from "../src/site-header.ts";

describe("fillMarkers", () => {
  it("replaces every marker with its value", () => {
    expect(fillMarkers("<p><!-- @a --> and <!--@b--></p>", { a: "1", b: "2" }, "x.html")).toBe(
      "<p>1 and 2</p>",
    );
  });

  it("fails on a marker without a value and on a value without a marker", () => {
    expect(() => fillMarkers("<!-- @a --><!-- @c -->", { a: "1" }, "x.html")).toThrow(
      "x.html: no value for marker <!-- @c -->",
    );
    expect(() => fillMarkers("<!-- @a -->", { a: "1", b: "2" }, "x.html")).toThrow(
      "x.html: missing marker(s) <!-- @b -->",
    );
  });
});

describe("renderSiteHeader", () => {
  it("marks the current reference in the version switch and links relative to the page", () => {
    const header = renderSiteHeader({ kind: "reference", version: "2.0" }, "../");
    expect(header).toContain('<a href="../v2.0/index.html" aria-current="page" data-version="2.0"');
    expect(header).toContain('<a href="../v2.1/index.html" data-version="2.1"');
    expect(header).toContain('href="../authentication.html"');
  });

  it("marks the current guide and no version on guide pages", () => {
    const header = renderSiteHeader({ kind: "guide", file: "authentication.html" }, "");
    expect(header).toContain('<a href="authentication.html" aria-current="page">Authentication</a>');
    expect(header.match(/aria-current/g)).toHaveLength(1);
  });
});
