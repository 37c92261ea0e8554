import { describe, expect, it } from "vitest";
import { decodeForm, formFieldsObject } from "../../src/http/form-fields.js";
import { isOverlongNumber } from "../../src/http/validator.js";

describe("form fields", () => {
  it("reads a field given once as a string and a repeated one as a list, in order", () => {
    const decoded = decodeForm("answer=red&note=caf%C3%A9+au+lait&answer=green&answer=", "request body");
    expect("fields" in decoded).toBe(true);
    if (!("fields" in decoded)) return;
    expect(formFieldsObject(decoded.fields)).toEqual({
      answer: ["red", "green", ""],
      note: "café au lait",
    });
  });

  it("keeps names such as __proto__ as plain fields", () => {
    const decoded = decodeForm("__proto__=x&constructor=y", "request body");
    if (!("fields" in decoded)) throw new Error("refused");
    const fields = formFieldsObject(decoded.fields);
    expect(Object.keys(fields)).toEqual(["__proto__", "constructor"]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("refuses escapes that are not two hex digits or do not spell UTF-8, saying where", () => {
    for (const text of ["a=%", "a=%4", "a=%zz", "a=%C3", "a=%FF", "%E0%A4%A=1"]) {
      const decoded = decodeForm(text, "query string");
      expect("problem" in decoded, text).toBe(true);
      if ("problem" in decoded)
        expect(decoded.problem, text).toMatch(/^query string: ".*" is not valid percent-encoding/);
    }
    expect("fields" in decodeForm("a=100%25&b=%E2%82%AC", "query string")).toBe(true);
  });
});

describe("numbers too long to be numbers", () => {
  it("flags integers beyond the exact range and numbers beyond the finite range", () => {
    expect(isOverlongNumber(String(Number.MAX_SAFE_INTEGER), "integer")).toBe(false);
    expect(isOverlongNumber("9007199254740993", "integer")).toBe(true);
    expect(isOverlongNumber(`-${"9".repeat(30)}`, "integer")).toBe(true);
    expect(isOverlongNumber(`1${"0".repeat(400)}`, "number")).toBe(true);
    expect(isOverlongNumber("1e20", "number")).toBe(false);
    // Not numeric, or not a numeric parameter: other rules deal with them.
    expect(isOverlongNumber("ten", "integer")).toBe(false);
    expect(isOverlongNumber("9".repeat(30), "string")).toBe(false);
  });
});
