/**
 * Every typed answer reaches the client as typed `data`. From the bundles, this test writes one
 * TypeScript file with one access per typed operation (a field its answer schema names, read from the
 * `data` that openapi-fetch gives for that path and method) in the all-versions entry and in the
 * `/v2.1` and `/v2.0` entries, and type-checks it with the package's compiler options. An answer that
 * degrades to `unknown`, `any` or an open record makes the field `unknown` or `any`, which the file
 * refuses. A control file checks that the same accesses do fail on such answers.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type HttpMethod, listOperations } from "@drill-practice/tooling/operations";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";

type Node = Record<string, unknown>;
interface Bundle {
  paths: Record<string, Record<string, Node>>;
  components: Record<string, Record<string, Node>>;
}

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const specDist = new URL("../../../spec/dist/", import.meta.url);
/** Answers that name no fields: the open `NotShown` and the empty object. */
const FIELDLESS = new Set(["NotShown", "EmptyObject"]);

/** One access the check file makes. */
interface TypedAccess {
  operationId: string;
  method: HttpMethod;
  path: string;
  /** The field read from `data` (from an item of it when the answer is an array). */
  field: string;
  array: boolean;
  /** The answer is a union (`anyOf`/`oneOf`): the field is read from the branch that names it. */
  union?: boolean;
}

function deref(bundle: Bundle, node: unknown): Node | undefined {
  let current = node as Node | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 10; hops++) {
    const [, kind = "", name = ""] = /^#\/components\/([^/]+)\/([^/]+)$/.exec(current.$ref) ?? [];
    current = bundle.components[kind]?.[name];
  }
  return current;
}

/** A field the schema names: its first required property, else its first property. */
function namedField(
  bundle: Bundle,
  schema: Node,
): { field: string; array: boolean; union?: boolean } | undefined {
  const pick = (object: Node | undefined) => {
    const properties = Object.keys((object?.properties ?? {}) as Node);
    const required = ((object?.required ?? []) as string[]).filter((name) => properties.includes(name));
    return required[0] ?? properties[0];
  };
  if (schema.type === "array") {
    const field = pick(deref(bundle, schema.items));
    return field === undefined ? undefined : { field, array: true };
  }
  const field = pick(schema);
  if (field !== undefined) return { field, array: false };
  // A union (a page whose text and example disagree): the first branch that names a field.
  for (const branch of [...((schema.anyOf ?? []) as Node[]), ...((schema.oneOf ?? []) as Node[])]) {
    const named = namedField(bundle, deref(bundle, branch) ?? {});
    if (named) return { ...named, union: true };
  }
  return undefined;
}

/**
 * The typed operations of a bundle: every operation whose success answer has a JSON schema other than
 * `NotShown` and `EmptyObject`, with the field to read. An operation whose schema names no field is
 * returned with `field: ""`, so that the check names it.
 */
function typedAccesses(bundle: Bundle): TypedAccess[] {
  const accesses: TypedAccess[] = [];
  for (const { path, method, operation } of listOperations<Node>(bundle)) {
    for (const [status, raw] of Object.entries((operation.responses ?? {}) as Node)) {
      if (!/^2(?:XX|xx|\d\d)$/.test(status)) continue;
      const json = (deref(bundle, raw)?.content as Record<string, Node> | undefined)?.["application/json"];
      if (!json?.schema) continue;
      const schemaRef = (json.schema as Node).$ref;
      const name = typeof schemaRef === "string" ? schemaRef.split("/").pop() : undefined;
      if (name !== undefined && FIELDLESS.has(name)) continue;
      const schema = deref(bundle, json.schema) ?? {};
      const named = namedField(bundle, schema);
      accesses.push({
        operationId: String(operation.operationId),
        method,
        path,
        field: named?.field ?? "",
        array: named?.array ?? false,
        ...(named?.union ? { union: true } : {}),
      });
      break;
    }
  }
  return accesses;
}

const PRELUDE = `import type { FetchResponse } from "openapi-fetch";
type IsAny<T> = 0 extends 1 & T ? true : false;
/** true when T is a real type: neither any nor unknown. */
type Known<T> = IsAny<T> extends true ? false : unknown extends T ? false : true;
/** What openapi-fetch resolves \`data\` to for one operation (JSON answers). */
type Data<Operation extends Record<string | number, any>> = NonNullable<
  FetchResponse<Operation, {}, "application/json">["data"]
>;
`;

/** The statements that read one field of one operation's `data` and insist on its type. */
function accessSource(alias: string, access: TypedAccess, index: number): string {
  const data = `d${index}`;
  const key = JSON.stringify(access.field);
  // A union's field is read, as a type, from the branch that has it.
  const read = access.union
    ? access.array
      ? `undefined as unknown as Extract<Extract<typeof ${data}, readonly unknown[]>[number], { ${key}?: unknown }>[${key}]`
      : `undefined as unknown as Extract<typeof ${data}, { ${key}?: unknown }>[${key}]`
    : access.array
      ? `${data}[0]?.[${key}]`
      : `${data}[${key}]`;
  return [
    `// ${access.operationId}: ${access.method.toUpperCase()} ${access.path} → ${access.field || "(no field named)"}`,
    `declare const ${data}: Data<${alias}[${JSON.stringify(access.path)}][${JSON.stringify(access.method)}]>;`,
    `const known${index}: Known<typeof ${data}> = true;`,
    `const field${index} = ${read};`,
    `const fieldKnown${index}: Known<typeof field${index}> = true;`,
    `void [known${index}, fieldKnown${index}];`,
  ].join("\n");
}

function checkSource(entries: readonly { alias: string; from: string; accesses: TypedAccess[] }[]): string {
  let index = 0;
  const imports = entries.map((e) => `import type { paths as ${e.alias} } from ${JSON.stringify(e.from)};`);
  const body = entries.flatMap((e) => e.accesses.map((a) => accessSource(e.alias, a, index++)));
  return `${PRELUDE}${imports.join("\n")}\n\n${body.join("\n\n")}\nexport {};\n`;
}

/** Type-checks files under the package's own compiler options; the diagnostics, one line each. */
function typeCheck(files: readonly string[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(packageDir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("tsconfig.json: not readable");
  const program = ts.createProgram({ rootNames: [...files], options: { ...config.options, noEmit: true } });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.split("/").pop()}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

async function loadBundle(name: string): Promise<Bundle> {
  return JSON.parse(await readFile(new URL(name, specDist), "utf8")) as Bundle;
}

const CONTROL_PATHS = ["/unknown", "/any", "/record", "/typed"] as const;

/** A control file: the same accesses on answers typed `unknown`, `any`, an open record and a real object. */
function controlSource(): string {
  const answer = (type: string) =>
    `{ get: { parameters: {}; requestBody?: never; responses: { "2XX": { headers: { [name: string]: unknown }; content: { "application/json": ${type} } } } } }`;
  const types = ["unknown", "any", "{ [key: string]: unknown }", "{ id: string; [key: string]: unknown }"];
  const paths = CONTROL_PATHS.map((path, i) => `  "${path}": ${answer(types[i] ?? "")};`).join("\n");
  const blocks = CONTROL_PATHS.map((path, i) =>
    accessSource("Control", { operationId: path, method: "get", path, field: "id", array: false }, i),
  );
  return `${PRELUDE}type Control = {\n${paths}\n};\n\n${blocks.join("\n\n")}\nexport {};\n`;
}

/** The path of the block (opened by a comment naming it) that a diagnostic's line falls in. */
function blockOf(source: string, line: number): string | undefined {
  const lines = source.split("\n");
  for (let l = line - 1; l >= 0; l--) {
    const match = /^\/\/ (\S+):/.exec(lines[l] ?? "");
    if (match) return match[1];
  }
  return undefined;
}

describe("typed answers in the generated paths", () => {
  // In the package's test folder, so that the checked files resolve the package's sources and types.
  const dir = scratchDirForAll(".typed-answers-", join(packageDir, "test"));
  const entries: { alias: string; from: string; accesses: TypedAccess[] }[] = [];
  let problems: string[] = [];
  const control = controlSource();
  // One program for both files: loading the generated types is what takes the time.
  beforeAll(async () => {
    for (const [alias, entry, bundle] of [
      ["All", "index", "openapi.json"],
      ["V211", "v2.1.1", "openapi-v2.1.1.json"],
      ["V21", "v2.1", "openapi-v2.1.json"],
      ["V20", "v2.0", "openapi-v2.0.json"],
    ] as const) {
      entries.push({
        alias,
        from: `../../src/${entry}.js`,
        accesses: typedAccesses(await loadBundle(bundle)),
      });
    }
    await writeFile(join(dir(), "typed-answers.ts"), checkSource(entries));
    await writeFile(join(dir(), "control.ts"), control);
    problems = typeCheck([join(dir(), "typed-answers.ts"), join(dir(), "control.ts")]);
  }, 180_000);

  it("finds the typed operations of each entry, each naming a field", () => {
    const [all, v211, v21, v20] = entries;
    expect(all?.accesses.map((a) => a.operationId)).toEqual(
      expect.arrayContaining([
        "exchangeToken",
        "getQuestion_v2_0",
        "submitAnswer_v2_0",
        "addToRepertoire_v2_1",
      ]),
    );
    // Each version's entry has exactly that version's typed operations plus token exchange and discovery.
    const ids = (list?: TypedAccess[]) => (list ?? []).map((a) => a.operationId).sort();
    const only = (prefix: string) =>
      ids(all?.accesses.filter((a) => !a.path.startsWith("/api/") || a.path.startsWith(prefix)));
    expect(ids(v211?.accesses)).toEqual(only("/api/2.1.1/"));
    expect(ids(v211?.accesses)).toContain("getBeacon_v2_1_1");
    expect(ids(v21?.accesses)).toEqual(only("/api/2.1/"));
    expect(ids(v20?.accesses)).toEqual(only("/api/2/"));
    expect(all?.accesses.filter((a) => a.field === "").map((a) => a.operationId)).toEqual([]);
  });

  it("gives every typed operation typed data, in all four entries", () => {
    expect(problems.filter((p) => !p.startsWith("control.ts:"))).toEqual([]);
  });

  it("refuses data that is unknown, any or an open record", () => {
    const failing = new Set(
      problems
        .filter((p) => p.startsWith("control.ts:"))
        .map((p) => blockOf(control, Number(/^control\.ts:(\d+) /.exec(p)?.[1])) ?? p),
    );
    expect([...failing].sort()).toEqual(["/any", "/record", "/unknown"]);
  });
});
