import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY } from "../src/core/retry.js";

const readme = await readFile(new URL("../README.md", import.meta.url), "utf8");
const flat = readme.replace(/\s+/g, " ");

/** The type exports of a version entry whose declaration is one of its generated schema aliases. */
function schemaTypes(entry: "v2.1" | "v2.0"): string[] {
  const file = fileURLToPath(new URL(`../src/${entry}.ts`, import.meta.url));
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`no module symbol for ${file}`);
  return checker
    .getExportsOfModule(symbol)
    .filter((exported) => {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      return (target.declarations ?? []).some((declaration) =>
        declaration.getSourceFile().fileName.endsWith(`/generated/schemas-${entry}.ts`),
      );
    })
    .map((exported) => exported.name);
}

describe("what the README says about the package, kept true", () => {
  it("counts the schema types each version entry exports", () => {
    const said = /the `\/v2\.1` entry exports (\d+) schema types, the `\/v2\.0` entry (\d+)\./.exec(flat);
    expect(said, "the sentence on typed schemas").not.toBeNull();
    const v21 = schemaTypes("v2.1");
    const v20 = schemaTypes("v2.0");
    expect(v21).toContain("Group_v2_1");
    expect(v20).toContain("Drillable");
    expect(Number(said?.[1])).toBe(v21.length);
    expect(Number(said?.[2])).toBe(v20.length);
  }, 60_000);

  it("names the statuses retried by default, from the client's own table", () => {
    const statuses = [...(DEFAULT_RETRY.retryOn as readonly number[])];
    const table = /\| `retry\.retryOn` +\| `\[([\d, ]+)\]`/.exec(readme);
    expect(table?.[1]?.split(", ").map(Number)).toEqual(statuses);
    const spelled = `${statuses.slice(0, -1).join(", ")} and ${statuses.at(-1)}`;
    expect(flat).toContain(`the statuses ${spelled}`);
  });
});
