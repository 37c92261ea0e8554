/**
 * One error family: every code in one table, the README's table in step with
 * it, and `instanceof DrillError` across separately loaded copies of the code.
 */
import { spawnSync } from "node:child_process";
import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { brandErrorFamily } from "../src/core/index.js";
import {
  DRILL_ERROR_CODES,
  DrillApiError,
  DrillError,
  DrillInvalidOptionError,
  DrillNetworkError,
  DrillTimeoutError,
  DrillUnexpectedResponseError,
} from "../src/index.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

describe("DRILL_ERROR_CODES", () => {
  it("lists every code once, with a one-line meaning and the packages that throw it", () => {
    for (const [code, info] of Object.entries(DRILL_ERROR_CODES)) {
      expect(code).toMatch(/^ERR_[A-Z_]+$/);
      expect(info.meaning.length).toBeGreaterThan(10);
      expect(info.meaning).not.toContain("\n");
      expect(info.packages.length).toBeGreaterThan(0);
    }
  });

  it("holds the code of every error the client throws", () => {
    const response = new Response(null, { status: 500 });
    const errors: DrillError[] = [
      new DrillApiError({ status: 500, body: undefined, operation: { method: "GET", path: "/x" }, response }),
      new DrillTimeoutError({ timeoutMs: 1, method: "GET", url: "https://x" }),
      new DrillNetworkError({ method: "GET", url: "https://x", attempts: 1, cause: new TypeError("down") }),
      new DrillInvalidOptionError("retry", "bad"),
    ];
    for (const error of errors) {
      expect(error).toBeInstanceOf(DrillError);
      expect(Object.keys(DRILL_ERROR_CODES)).toContain(error.code);
    }
  });

  it("is the table of the README, row for row", async () => {
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const rows = readme
      .split("\n")
      .filter((line) => line.startsWith("| `ERR_"))
      .map((line) => line.split("|").map((cell) => cell.trim()));
    expect(rows.map((cells) => cells[1])).toEqual(
      Object.keys(DRILL_ERROR_CODES).map((code) => `\`${code}\``),
    );
    for (const [code, info] of Object.entries(DRILL_ERROR_CODES)) {
      const cells = rows.find((row) => row[1] === `\`${code}\``) ?? [];
      expect(cells[3], code).toBe(info.packages.join(", "));
      expect(cells[4], code).toBe(info.meaning);
    }
  });
});

describe("DrillApiError says what happened", () => {
  const operation = { method: "GET", path: "/api/2/store" };
  const make = (body: unknown, status = 400) =>
    new DrillApiError({ status, body, operation, response: new Response(null, { status }) });

  it("reads the identifier from ID or id, and quotes description or message", () => {
    const lower = make({ id: "not_authenticated", description: "User was not authenticated" }, 401);
    expect(lower.errorId).toBe("not_authenticated");
    expect(lower.message).toBe(
      'GET /api/2/store failed with HTTP 401 (ID "not_authenticated"): User was not authenticated',
    );
    const upper = make({ ID: "query_missing", message: "the parameter query is required" });
    expect(upper.errorId).toBe("query_missing");
    expect(upper.description).toBe("the parameter query is required");
    expect(make({}).message).toBe("GET /api/2/store failed with HTTP 400");
  });

  it("redacts secrets in the explanation, keeps the words around them, and caps its length", () => {
    const token = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    const error = make({ id: "bad_token", description: `token ${token} expired; get a new one` });
    expect(error.message).toContain("token [redacted] expired; get a new one");
    expect(error.message).not.toContain(token);
    const long = make({ id: "x", description: "word ".repeat(200) });
    expect(long.description?.length).toBeLessThanOrEqual(301);
    expect(long.description?.endsWith("…")).toBe(true);
  });
});

describe("DrillApiError reads only usable fields", () => {
  const operation = { method: "GET", path: "/api/2/store" };
  const make = (body: unknown, status = 400) =>
    new DrillApiError({ status, body, operation, response: new Response(null, { status }) });
  const bare = (status = 400) => `${operation.method} ${operation.path} failed with HTTP ${status}`;

  it("finds nothing in a null body", () => {
    const error = make(null);
    expect(error.body).toBeNull();
    expect(error.errorId).toBeUndefined();
    expect(error.description).toBeUndefined();
    expect(error.message).toBe(bare());
  });

  it("passes over empty and blank fields to the next one", () => {
    const body = { ID: "  ", id: "query_missing", description: "", message: "A search needs a query" };
    const error = make(body);
    expect(error.errorId).toBe(body.id);
    expect(error.description).toBe(body.message);
    expect(error.message).toBe(`${bare()} (ID "${body.id}"): ${body.message}`);
    const blank = make({ ID: "", id: "\t ", description: " \n ", message: "  " });
    expect(blank.errorId).toBeUndefined();
    expect(blank.description).toBeUndefined();
    expect(blank.message).toBe(bare());
  });

  it("adds no explanation when nothing printable is left of it", () => {
    const error = make({ id: "x", description: "\u0000\u0007" });
    expect(error.message).toBe(`${bare()} (ID "x")`);
  });

  it("quotes an identifier and an explanation without secrets as they were sent", () => {
    // The last text is the one Stryker puts into an array literal it mutates, so a
    // stray entry in the (empty) list of secrets passed along would show here.
    for (const text of ["query_missing", "The drill was not found", "Stryker was here"]) {
      const error = make({ id: text, description: text });
      expect(error.errorId).toBe(text);
      expect(error.description).toBe(text);
      expect(error.message).toBe(`${bare()} (ID ${JSON.stringify(text)}): ${text}`);
    }
  });
});

describe("DrillNetworkError names the cause underneath", () => {
  const request = { method: "GET", url: "https://drill.example/api/2/version" };
  const prefix = (attempts: number) =>
    `${request.method} ${request.url} failed without a response after ${attempts === 1 ? "1 attempt" : `${attempts} attempts`}`;

  it("adds the system error code of the cause's own cause", () => {
    const system = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" });
    const error = new DrillNetworkError({
      ...request,
      attempts: 3,
      cause: new TypeError("fetch failed", { cause: system }),
    });
    expect(error.message).toBe(`${prefix(3)}: fetch failed (${system.code})`);
  });

  it("adds no code that is not a string (the platform's message still says why), and nothing for a cause that is not an error", () => {
    const numbered = Object.assign(new Error("inner"), { code: 111 });
    const error = new DrillNetworkError({
      ...request,
      attempts: 1,
      cause: new TypeError("fetch failed", { cause: numbered }),
    });
    expect(error.message).toBe(`${prefix(1)}: fetch failed (inner)`);
    for (const cause of ["connection reset", 42, undefined]) {
      expect(new DrillNetworkError({ ...request, attempts: 2, cause }).message).toBe(prefix(2));
    }
  });
});

describe("instanceof DrillError in one process", () => {
  const timeout = () => new DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://x" });

  it("is false for primitives, null and undefined, and for errors that only look alike", () => {
    const symbol = Symbol("DrillError");
    for (const value of [null, undefined, "ERR_TIMEOUT", 42, true, 1n, symbol] as unknown[]) {
      expect(value instanceof DrillError).toBe(false);
      expect(value instanceof DrillTimeoutError).toBe(false);
    }
    class Lookalike extends Error {
      readonly code = "ERR_TIMEOUT";
      override readonly name = "DrillTimeoutError";
    }
    for (const value of [
      new Error("x"),
      new Lookalike(),
      { name: "DrillTimeoutError", code: "ERR_TIMEOUT" },
    ]) {
      expect(value instanceof DrillError).toBe(false);
      expect(value instanceof DrillTimeoutError).toBe(false);
    }
  });

  it("holds for a subclass of a subclass, which keeps the literal name of the SDK's class", () => {
    class PolicyTimeout extends DrillTimeoutError {}
    const error = new PolicyTimeout({ timeoutMs: 5, method: "GET", url: "https://x" });
    expect(error.name).toBe("DrillTimeoutError");
    expect(error instanceof DrillTimeoutError).toBe(true);
    expect(error instanceof DrillError).toBe(true);
    expect(error instanceof DrillNetworkError).toBe(false);
  });

  it("holds for an application's own subclass only for that subclass's errors", () => {
    class PolicyTimeout extends DrillTimeoutError {}
    const own = new PolicyTimeout({ timeoutMs: 5, method: "GET", url: "https://x" });
    expect(own instanceof PolicyTimeout).toBe(true);
    // The SDK's error of the same code was not made by the application's class.
    expect(timeout() instanceof PolicyTimeout).toBe(false);
    expect(new DrillInvalidOptionError("retry", "bad") instanceof PolicyTimeout).toBe(false);
  });

  describe("with a second copy of the package loaded", () => {
    let second: typeof import("../src/index.js");
    let secondInternal: typeof import("../src/core/index.js");
    beforeAll(async () => {
      // A fresh module graph: the classes of a second installed copy of the package.
      vi.resetModules();
      second = await import("../src/index.js");
      secondInternal = await import("../src/core/index.js");
    });

    it("recognises a branded family base's errors from either copy, and no error outside the family", () => {
      // The same family declared by each copy, as auth's KeyFileError is in two installed versions.
      const key = "@drill-practice/client/test/StoreError";
      abstract class StoreError extends DrillError {}
      brandErrorFamily(StoreError, key);
      class StoreFull extends StoreError {
        readonly code = "ERR_INVALID_OPTION";
        override readonly name = "StoreFull";
      }
      abstract class SecondStoreError extends second.DrillError {}
      secondInternal.brandErrorFamily(SecondStoreError, key);
      class SecondStoreFull extends SecondStoreError {
        readonly code = "ERR_INVALID_OPTION";
        override readonly name = "StoreFull";
      }
      expect(SecondStoreError).not.toBe(StoreError);
      for (const error of [new StoreFull("full"), new SecondStoreFull("full")]) {
        expect(error instanceof StoreError).toBe(true);
        expect(error instanceof SecondStoreError).toBe(true);
        expect(error instanceof DrillError).toBe(true);
      }
      const secondTimeout = new second.DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://x" });
      for (const outside of [timeout(), secondTimeout]) {
        expect(outside instanceof StoreError).toBe(false);
        expect(outside instanceof SecondStoreError).toBe(false);
      }
    });

    it("recognises errors of either copy as DrillError, and subclasses by name", () => {
      expect(second.DrillError).not.toBe(DrillError);
      const fromSecond = new second.DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://x" });
      for (const error of [timeout(), fromSecond]) {
        expect(error instanceof DrillError).toBe(true);
        expect(error instanceof second.DrillError).toBe(true);
        expect(error instanceof DrillTimeoutError).toBe(true);
        expect(error instanceof second.DrillTimeoutError).toBe(true);
        expect(error instanceof DrillNetworkError).toBe(false);
        expect(error instanceof second.DrillUnexpectedResponseError).toBe(false);
      }
      const unexpected = new DrillUnexpectedResponseError({
        operation: { method: "GET", path: "/x" },
        problem: "no total",
        body: {},
      });
      expect(unexpected instanceof second.DrillUnexpectedResponseError).toBe(true);
      expect(unexpected instanceof second.DrillTimeoutError).toBe(false);
    });
  });
});

describe("instanceof DrillError across copies", () => {
  const copies = scratchDirForEach("drill-error-copies-");
  it("recognises errors made by a separately loaded copy of the code, and nothing else", async () => {
    const dir = copies();
    // Two copies of the core, as two installed versions of the packages would be.
    await cp(join(packageDir, "src/core"), join(dir, "a"), { recursive: true });
    await cp(join(packageDir, "src/core"), join(dir, "b"), { recursive: true });
    await writeFile(
      join(dir, "check.ts"),
      `import * as a from "./a/index.ts";
import * as b from "./b/index.ts";
const fromA = new a.DrillTimeoutError({ timeoutMs: 5, method: "GET", url: "https://x" });
class Lookalike extends Error { code = "ERR_TIMEOUT"; }
console.log(JSON.stringify({
  distinctClasses: a.DrillError !== b.DrillError,
  baseAcross: fromA instanceof b.DrillError,
  subclassAcross: fromA instanceof b.DrillTimeoutError,
  otherSubclass: fromA instanceof b.DrillNetworkError,
  lookalike: new Lookalike() instanceof b.DrillError,
  plain: new Error("x") instanceof b.DrillError,
  primitive: ("ERR_TIMEOUT" as unknown) instanceof b.DrillError,
}));
`,
    );
    const run = spawnSync(process.execPath, ["--import", "tsx", join(dir, "check.ts")], {
      cwd: packageDir,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({
      distinctClasses: true,
      baseAcross: true,
      subclassAcross: true,
      otherSubclass: false,
      lookalike: false,
      plain: false,
      primitive: false,
    });
  });
});
