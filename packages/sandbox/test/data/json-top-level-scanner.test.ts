import { describe, expect, it } from "vitest";
import { JsonScanError, TopLevelScanner } from "../../src/data/json-top-level-scanner.js";

interface Scanned {
  /** The top-level object as rebuilt from what the visitor received. */
  readonly root: Record<string, unknown>;
  /** Every call, in order: `member key`, `element key index`, `end key length`. */
  readonly calls: string[];
}

/**
 * Scans `text` cut into chunks at the given byte offsets; array values of the `streamed` names arrive
 * element by element. Every chunk goes through one buffer, overwritten with junk after each write, as
 * a file read into one buffer reuses it.
 */
function scan(text: string, cuts: readonly number[], streamed: (key: string) => boolean): Scanned {
  const bytes = Buffer.from(text, "utf8");
  const root: Record<string, unknown> = {};
  const calls: string[] = [];
  const elements = new Map<string, unknown[]>();
  const define = (key: string, value: unknown) =>
    Object.defineProperty(root, key, { value, enumerable: true, writable: true, configurable: true });
  const scanner = new TopLevelScanner({
    streams: streamed,
    member(key, value) {
      calls.push(`member ${key}`);
      define(key, value);
    },
    element(key, index, value) {
      calls.push(`element ${key} ${index}`);
      const list = elements.get(key) ?? [];
      list.push(value);
      elements.set(key, list);
    },
    arrayEnd(key, length) {
      calls.push(`end ${key} ${length}`);
      define(key, elements.get(key) ?? []);
    },
  });
  const reused = Buffer.alloc(bytes.length);
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    const length = bytes.copy(reused, 0, from, cut);
    scanner.write(reused.subarray(0, length));
    reused.fill("]");
    from = cut;
  }
  scanner.end();
  return { root, calls };
}

const everything = () => true;

/** Every way to cut the text's bytes in two, plus one byte per chunk. */
function cuttings(text: string): number[][] {
  const length = Buffer.byteLength(text, "utf8");
  const ways: number[][] = [Array.from({ length: Math.max(0, length - 1) }, (_, i) => i + 1)];
  for (let cut = 0; cut <= length; cut++) ways.push([cut]);
  return ways;
}

/** Valid JSON meant to trip a scanner: brackets and quotes inside strings, escapes, multi-byte UTF-8. */
const TRICKY = [
  "{",
  '  "drills" : [',
  '    { "name": "a \\"quoted\\" ] } [ { name", "items": [ { "ask": "\\\\", "tell": "\\\\\\"" } ] },',
  '    "\\u005c\\u0022 is a backslash and a quote", "\\ud83d\\ude00 = 😀", "ß é ねこ 🐈",',
  '    [ [], {}, [ [ "]" ] ] ], -0.5e+3, 12, true, false, null, ""',
  "  ],",
  '\t"other":\r\n{ "x": [ "}", "{" ], "y": "ünïcödé" },',
  '  "n": 1.25E-2, "s": "tab\\there", "empty": [ ], "ke\\u0079": [ 1 ]',
  "}",
].join("\n");

describe("TopLevelScanner", () => {
  it("gives JSON.parse's values for every cut into chunks, inside strings, escapes and characters too", () => {
    const expected = JSON.parse(TRICKY) as Record<string, unknown>;
    for (const cuts of cuttings(TRICKY)) {
      const { root } = scan(TRICKY, cuts, everything);
      expect(root, `cut at ${cuts.join(",")}`).toEqual(expected);
      expect(Object.keys(root)).toEqual(Object.keys(expected));
    }
  });

  it("hands over streamed arrays element by element and other members whole, in document order", () => {
    const text = '{"a": [1, {"b": [2]}], "b": [3], "c": "x", "a2": {"d": []}, "e": []}';
    const { calls } = scan(text, [], (key) => key === "a" || key === "c" || key === "e");
    expect(calls).toEqual([
      "element a 0",
      "element a 1",
      "end a 2",
      "member b",
      // A streamed name whose value is not an array comes whole.
      "member c",
      "member a2",
      "end e 0",
    ]);
  });

  it("rejects every malformed document that JSON.parse rejects, wherever the chunks are cut", () => {
    const malformed = [
      "",
      "   ",
      "{",
      '{"a": [1, 2}',
      '{"a": [1, 2,]}',
      '{"a": [, 1]}',
      '{"a": [1 2]}',
      '{"a": 1,}',
      '{"a" 1}',
      "{a: 1}",
      "{'a': 1}",
      '{"a": tru}',
      '{"a": "\\x"}',
      '{"a": "unterminated}',
      '{"a": ["unterminated]}',
      '{"a": "raw\u0001control"}',
      '{"a": [1]]}',
      '{"a": 1} x',
      '{"a": 1}{}',
      '\ufeff{"a": 1}',
      '{"a": 01}',
      '{"a": [{"b": 1]}]}',
    ];
    for (const text of malformed) {
      expect(() => JSON.parse(text), text).toThrow(SyntaxError);
      for (const cuts of cuttings(text)) {
        expect(() => scan(text, cuts, everything), `${text} cut at ${cuts.join(",")}`).toThrow(JsonScanError);
      }
    }
  });

  it("says what is wrong and at which byte", () => {
    const text = '{"drills": [{"id": 1}, {"id": 2} {"id": 3}]}';
    const error = (() => {
      try {
        scan(text, [5, 20], everything);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(JsonScanError);
    expect((error as JsonScanError).message).toBe("expected ',' or ']' after an array element");
    expect((error as JsonScanError).offset).toBe(text.indexOf('{"id": 3}'));
  });

  it("stops at a top level that is not an object and at a repeated top-level name", () => {
    for (const text of ["[]", '"text"', "3", "null"]) {
      expect(() => scan(text, [], everything)).toThrow("the top level is not an object");
    }
    expect(() => scan('{"a": [1], "a": [2]}', [], everything)).toThrow('the top-level name "a" repeats');
    expect(() => scan('{"a": 1, "\\u0061": 2}', [], () => false)).toThrow('the top-level name "a" repeats');
  });

  it("decodes names with escapes before comparing them", () => {
    const { calls } = scan('{"dr\\u0069lls": [1], "\\"q\\"": 2}', [4], (key) => key === "drills");
    expect(calls).toEqual(["element drills 0", "end drills 1", 'member "q"']);
  });
});
