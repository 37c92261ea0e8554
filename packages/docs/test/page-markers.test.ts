import { describe, expect, it } from "vitest";
import { layoutGuidePage } from "../src/guide-layout.ts";
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

describe("layoutGuidePage", () => {
  const layout = [
    "<html><head>",
    "<!-- @page-head -->",
    "<!-- @color-mode --></head><body><!-- @site-header --><main>",
    "<!-- @page-main -->",
    "</main></body></html>",
  ].join("\n");
  const shared = { "site-header": "<header>site</header>", "color-mode": "<script>mode</script>" };

  it("puts the guide's own head lines and main lines into the shared layout, line for line", () => {
    const page =
      "<head>\n  <title>Errors</title>\n</head>\n<main>\n  <h1>Errors</h1>\n\n  <p>Text</p>\n</main>\n";
    expect(layoutGuidePage(layout, page, shared, "site/errors.html")).toBe(
      [
        "<html><head>",
        "  <title>Errors</title>",
        "<script>mode</script></head><body><header>site</header><main>",
        "  <h1>Errors</h1>",
        "",
        "  <p>Text</p>",
        "</main></body></html>",
      ].join("\n"),
    );
  });

  it("refuses a guide that is not exactly a <head> and a <main>, naming its file", () => {
    const whole =
      "<!DOCTYPE html>\n<html>\n<head>\n  <title>Old</title>\n</head>\n<main>\n  <h1>Old</h1>\n</main>\n</html>\n";
    expect(() => layoutGuidePage(layout, whole, shared, "site/old.html")).toThrow(
      "site/old.html: a guide holds a <head>…</head> then a <main>…</main>",
    );
  });
});
