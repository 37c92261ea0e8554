/**
 * What an editor shows for the retired versions: the suggestion diagnostics (TypeScript's
 * strike-through) of code that names a 2.1 or 2.0 path or operation, and none for 2.1.1.
 */
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

/** The deprecation suggestions (code 6385/6387) TypeScript gives for `source`, by line. */
function deprecations(source: string): string[] {
  const file = resolve(packageDir, "test/__deprecations.ts");
  const config = ts.getParsedCommandLineOfConfigFile(
    resolve(packageDir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (config === undefined) throw new Error("tsconfig.json of the client not readable");
  const read = (path: string) => (path === file ? source : ts.sys.readFile(path));
  const service = ts.createLanguageService({
    getScriptFileNames: () => [file],
    getScriptVersion: () => "1",
    getScriptSnapshot: (path) => {
      const text = read(path);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => packageDir,
    getCompilationSettings: () => ({ ...config.options, noEmit: true }),
    getDefaultLibFileName: ts.getDefaultLibFilePath,
    fileExists: (path) => path === file || ts.sys.fileExists(path),
    readFile: read,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  });
  const errors = service.getSemanticDiagnostics(file);
  expect(errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "))).toEqual([]);
  const sourceFile = service.getProgram()?.getSourceFile(file);
  return service
    .getSuggestionDiagnostics(file)
    .filter((d) => d.code === 6385 || d.code === 6387)
    .map((d) => {
      const line = sourceFile?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? -1;
      return `${line + 1}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
    });
}

describe("retired versions in an editor", () => {
  it("strikes through a 2.1 or 2.0 path and operation, and says when the version was switched off", () => {
    const found = deprecations(
      [
        'import type { operations, paths } from "../src/index.js";',
        'type Old = paths["/api/2.1/beacons"]["get"];',
        'type Older = paths["/api/2/store"]["get"];',
        'type OldOperation = operations["listBeacons_v2_1"];',
        'type Today = paths["/api/2.1.1/beacons"]["get"];',
        'type TodayOperation = operations["listBeacons_v2_1_1"];',
        "export type All = [Old, Older, OldOperation, Today, TodayOperation];",
      ].join("\n"),
    );
    // The path and its operation both: openapi-typescript marks the operation, the generator the path.
    expect(found.sort()).toEqual([
      "2: '/api/2.1/beacons' is deprecated.",
      "2: 'get' is deprecated.",
      "3: '/api/2/store' is deprecated.",
      "3: 'get' is deprecated.",
      "4: 'listBeacons_v2_1' is deprecated.",
    ]);
  });

  it("strikes through the call that creates a 2.1 or 2.0 client, in both modes, and not a 2.1.1 one", () => {
    const found = deprecations(
      [
        'import { createDrillClient as v21 } from "../src/v2.1.js";',
        'import { createDrillClient as v20 } from "../src/v2.0.js";',
        'import { createDrillClient as v211 } from "../src/v2.1.1.js";',
        'const baseUrl = "https://drill.example";',
        "export const old = v21({ baseUrl });",
        "export const oldThrowing = v21({ baseUrl, throwOnError: true });",
        "export const older = v20({ baseUrl });",
        "export const today = v211({ baseUrl });",
      ].join("\n"),
    );
    // Each overload carries the tag: TypeScript names the signature the call resolved to.
    expect(found.map((line) => line.replace(/The signature .* of /, "")).sort()).toEqual([
      "5: 'v21' is deprecated.",
      "6: 'v21' is deprecated.",
      "7: 'v20' is deprecated.",
    ]);
  });

  it("gives the date in the tag of the one-version entry's paths", async () => {
    const { readFile } = await import("node:fs/promises");
    const types = await readFile(resolve(packageDir, "src/generated/openapi-v2.1.d.ts"), "utf8");
    const tag = "@deprecated API 2.1 was switched off on 2025-03-01; the service answers API 2.1.1";
    expect(types).toMatch(
      new RegExp(
        `${tag.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}[^\\n]*\\n\\s+\\*/\\n\\s+"/api/2\\.1/beacons": \\{`,
      ),
    );
    const today = await readFile(resolve(packageDir, "src/generated/openapi-v2.1.1.d.ts"), "utf8");
    expect(today).not.toContain("@deprecated API");
  });
});
