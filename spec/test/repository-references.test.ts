/**
 * The bundles are public: the docs render their prose, and the client's types carry it as
 * comments. A reader of those has no checkout, so a description never sends them to a file of
 * this repository ("see spec/README.md") unless it links it; the decision it would point to is
 * written where the reader is instead.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadBundle } from "./spec-fixtures.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The repository's top-level folders and files, as a reader would see them named in prose. */
const entries = readdirSync(root, { withFileTypes: true }).filter(
  (entry) => entry.name !== "node_modules" && entry.name !== ".git",
);
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => literal(entry.name));
const files = entries.filter((entry) => entry.isFile()).map((entry) => literal(entry.name));
/** A folder followed by a path inside it (`spec/README.md`), or a top-level file (`README.md`). */
const repositoryPath = new RegExp(
  `(?<![\\w./-])(?:(?:${folders.join("|")})/[\\w./{}-]*[\\w}]|(?:${files.join("|")})(?![\\w/-]))`,
  "g",
);

/** Every prose string of a bundle a page or a type comment shows, with where it is. */
function prose(value: unknown, at: string, into: [string, string][]): [string, string][] {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) prose(item, `${at}/${index}`, into);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (typeof child === "string" && ["description", "summary", "title", "note"].includes(key))
        into.push([`${at}/${key}`, child]);
      else prose(child, `${at}/${key}`, into);
    }
  }
  return into;
}

describe("the bundles' prose", () => {
  it("can tell a repository path from other words", () => {
    const found = (text: string) => [...text.matchAll(repositoryPath)].map((match) => match[0]);
    expect(found("see Contradictions in spec/README.md.")).toEqual(["spec/README.md"]);
    expect(found("as `packages/sandbox/README.md` says")).toEqual(["packages/sandbox/README.md"]);
    expect(found("the README.md of this repository")).toEqual(["README.md"]);
    expect(found("SDK Api.java; a spec of the service; components/examples/User")).toEqual([]);
  });

  it.each(["openapi.json", "openapi-v2.1.json", "openapi-v2.0.json"] as const)(
    "%s names no repository file without linking it",
    (file) => {
      const strings = prose(loadBundle(file), "#", []);
      expect(strings.length).toBeGreaterThan(500);
      const bare = strings.flatMap(([where, text]) => {
        // A Markdown link's text and target may name the file: the reader can follow it.
        const unlinked = text.replace(/\[[^\]]*\]\([^)]*\)/g, "");
        return [...unlinked.matchAll(repositoryPath)].map((match) => `${where}: ${match[0]}`);
      });
      expect(bare).toEqual([]);
    },
  );
});
