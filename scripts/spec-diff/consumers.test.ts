/**
 * The consumer code check: code written against the types of a release, compiled against the types
 * generated from the changed description. The three changes only a TypeScript consumer feels are
 * made on the fixture document; the code compiles against the old types and fails, at the line
 * that breaks, against the new ones.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import { describe, expect, it } from "vitest";
import { classifyChanges } from "./classify.ts";
import { compileConsumers, compileOverlay } from "./consumers.ts";
import { type PracticeApi, practiceApi } from "./fixtures/practice-api.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));

async function typesOf(doc: PracticeApi): Promise<string> {
  return astToString(await openapiTS(doc as unknown as Parameters<typeof openapiTS>[0], { silent: true }));
}

interface TypeOnlyCase {
  kind: string;
  edit: (doc: PracticeApi) => void;
  consumer: string;
  /** The line of `consumer` that stops compiling, and words of the error. */
  line: number;
  error: RegExp;
}

const evaluation = (doc: PracticeApi) =>
  doc.components.schemas.Evaluation as {
    required: string[];
    properties: Record<string, Record<string, unknown>>;
  };

const cases: TypeOnlyCase[] = [
  {
    kind: "an answer property becomes optional (strictNullChecks)",
    edit: (doc) => {
      evaluation(doc).required = ["kind"];
    },
    consumer: [
      'import type { components } from "./types.js";',
      'export function shout(evaluation: components["schemas"]["Evaluation"]): string {',
      "  return evaluation.name.toUpperCase();",
      "}",
    ].join("\n"),
    line: 3,
    error: /TS18048: 'evaluation.name' is possibly 'undefined'/,
  },
  {
    kind: "an answer enum gains a value (exhaustive switch)",
    edit: (doc) => {
      (evaluation(doc).properties.kind as { enum: string[] }).enum.push("MULTIPLE_CHOICE");
    },
    consumer: [
      'import type { components } from "./types.js";',
      'export function label(kind: components["schemas"]["Evaluation"]["kind"]): string {',
      "  switch (kind) {",
      '    case "DRILL":',
      '      return "drill";',
      '    case "SINGLE":',
      '      return "single";',
      "    default: {",
      "      const unreachable: never = kind;",
      "      return unreachable;",
      "    }",
      "  }",
      "}",
    ].join("\n"),
    line: 9,
    error: /TS2322: Type '"MULTIPLE_CHOICE"' is not assignable to type 'never'/,
  },
  {
    kind: "an operationId is renamed (the generated `operations` key)",
    edit: (doc) => {
      doc.paths["/api/answer/{reference}"].put.operationId = "saveAnswer";
    },
    consumer: [
      'import type { operations } from "./types.js";',
      "",
      'export type Stored = operations["storeAnswer"]["responses"]["200"];',
    ].join("\n"),
    line: 3,
    error: /TS2339: Property 'storeAnswer' does not exist/,
  },
];

describe("consumer code against newly generated types: the TypeScript-only breaking changes", () => {
  it("compile against the old types and fail at the breaking line against the new ones", async () => {
    const overlay = new Map<string, string>();
    const dirOf = (index: number, which: "before" | "after") =>
      join(root, `.spec-diff/test-${index}-${which}`);
    for (const [index, item] of cases.entries()) {
      const after = practiceApi();
      item.edit(after);
      for (const [which, doc] of [
        ["before", practiceApi()],
        ["after", after],
      ] as const) {
        overlay.set(join(dirOf(index, which), "types.d.ts"), await typesOf(doc));
        overlay.set(join(dirOf(index, which), "consumer.ts"), `${item.consumer}\n`);
      }
    }
    const errors = compileOverlay(root, overlay);
    for (const [index, item] of cases.entries()) {
      const before = errors.filter((error) => error.file.startsWith(`${dirOf(index, "before")}/`));
      const found = errors.filter((error) => error.file.startsWith(`${dirOf(index, "after")}/`));
      expect(before, item.kind).toEqual([]);
      expect(found, item.kind).toEqual([
        {
          file: join(dirOf(index, "after"), "consumer.ts"),
          line: item.line,
          message: expect.stringMatching(item.error),
        },
      ]);
    }
  }, 120_000);

  it("are breaking in the spec diff too", () => {
    for (const item of cases) {
      const after = practiceApi();
      item.edit(after);
      const findings = classifyChanges(practiceApi(), after);
      expect(
        findings.map((finding) => finding.severity),
        item.kind,
      ).toContain("breaking");
    }
  });
});

describe("compileConsumers", () => {
  it("reports an error in a snippet at its line in the README it came from", () => {
    const errors = compileConsumers(root, [
      {
        path: ".spec-diff/snippets/README.md-40.ts",
        origin: "README.md:40",
        code: 'const count: number = "three";\nconsole.log(count);\nexport {};\n',
      },
      {
        path: "examples/not-a-real-example.ts",
        code: "export const ok = 1;\nexport const bad: string = 2;\n",
      },
    ]);
    expect(errors).toEqual([
      {
        path: ".spec-diff/snippets/README.md-40.ts",
        at: "README.md:40",
        message: expect.stringMatching(/^TS2322: /),
      },
      {
        path: "examples/not-a-real-example.ts",
        at: "examples/not-a-real-example.ts:2",
        message: expect.stringMatching(/^TS2322: /),
      },
    ]);
  }, 120_000);

  it("holds no widening against the code: an expected error that no longer happens is not breaking", () => {
    const errors = compileConsumers(root, [
      {
        path: "examples/widened.ts",
        code: [
          "const accept = (page: number | string) => page;",
          "// @ts-expect-error the release refused a number here",
          "accept(0);",
          "// @ts-expect-error still refused",
          "accept(true);",
          "export const narrowed: number = accept(1);",
          "",
        ].join("\n"),
      },
    ]);
    expect(errors).toEqual([
      {
        path: "examples/widened.ts",
        at: "examples/widened.ts:6",
        message: expect.stringMatching(/^TS2322: /),
      },
    ]);
  }, 120_000);
});
