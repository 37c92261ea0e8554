import { describe, expect, it } from "vitest";
import { findRemoteReferences, localizeRedocAssets, redocCreditFile } from "../src/offline-assets.ts";

describe("findRemoteReferences", () => {
  it("reports scripts, stylesheets, images and frames from other origins", () => {
    const html = [
      '<script src="https://cdn.example.com/redoc.js"></script>',
      "<link rel='stylesheet' href='//fonts.example.com/css'>",
      '<link rel="modulepreload" href=http://cdn.example.com/a.js>',
      '<img alt="" src="https://img.example.com/logo.svg">',
      '<iframe src="https://example.com/embed"></iframe>',
    ].join("\n");
    expect(findRemoteReferences(html)).toEqual([
      { kind: "<script src>", url: "https://cdn.example.com/redoc.js" },
      { kind: "<link href>", url: "//fonts.example.com/css" },
      { kind: "<link href>", url: "http://cdn.example.com/a.js" },
      { kind: "<img src>", url: "https://img.example.com/logo.svg" },
      { kind: "<iframe src>", url: "https://example.com/embed" },
    ]);
  });

  it("reports CSS imports and url() pointing elsewhere", () => {
    const css = `@import url("https://fonts.example.com/x.css");\n@import 'https://a.example/b.css';\nbody { background: url(https://img.example/bg.png) }`;
    expect(findRemoteReferences(css).map((reference) => reference.url)).toEqual([
      "https://fonts.example.com/x.css",
      "https://a.example/b.css",
      "https://fonts.example.com/x.css",
      "https://img.example/bg.png",
    ]);
  });

  it("accepts local references and plain links", () => {
    const html = [
      '<link rel="stylesheet" href="../style.css">',
      '<script src="/app.js"></script>',
      '<img src="favicon.svg">',
      '<a href="https://redocly.com/redoc/">credit</a>',
      "<style>body { background: url(data:image/png;base64,AAAA) }</style>",
    ].join("\n");
    expect(findRemoteReferences(html)).toEqual([]);
  });
});

describe("localizeRedocAssets", () => {
  it("points Redoc's credit images at the local file", () => {
    const html =
      "src:e?`https://cdn.redoc.ly/redoc/logo-mini-full.svg`:`https://cdn.redoc.ly/redoc/logo-mini.svg`";
    expect(localizeRedocAssets(html, "../")).toBe(
      `src:e?\`../${redocCreditFile}\`:\`../${redocCreditFile}\``,
    );
  });

  it("fails when Redoc no longer references the expected assets", () => {
    expect(() => localizeRedocAssets("<html></html>", "../")).toThrow(/no longer references/);
  });
});
