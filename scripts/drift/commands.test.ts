/**
 * The two commands' surfaces: usage, argument errors (exit 2), and drift:check's exit status
 * (1 on an error finding, 0 on a clean recording) and its warning on a raw recording.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { runProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { describe, expect, it } from "vitest";
import type { HarEntry } from "./redact-har.ts";
import { ROOT } from "./redocly.ts";

const dir = scratchDirForAll("drill-drift-commands-");

async function run(
  script: "record" | "check",
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { exitCode, stdout, stderr } = await runProcess({
    command: process.execPath,
    args: ["--import", "tsx", join(ROOT, `scripts/drift/${script}.ts`), ...args],
    cwd: ROOT,
    env: { ...process.env, INIT_CWD: dir() },
    timeoutMs: 60_000,
  });
  return { code: exitCode ?? 1, stdout, stderr };
}

function exchange(
  path: string,
  headers: { name: string; value: string }[],
  status: number,
  body: unknown,
): HarEntry {
  const text = JSON.stringify(body);
  return {
    startedDateTime: "2026-01-01T00:00:00.000Z",
    time: 1,
    request: {
      method: "GET",
      url: `http://127.0.0.1:4010${path}`,
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers,
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status,
      statusText: "",
      httpVersion: "HTTP/1.1",
      cookies: [],
      headers: [{ name: "content-type", value: "application/json" }],
      content: { size: text.length, mimeType: "application/json", text },
      redirectURL: "",
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

async function har(name: string, entries: HarEntry[]): Promise<string> {
  const file = join(dir(), name);
  await writeFile(
    file,
    JSON.stringify({ log: { version: "1.2", creator: { name: "test", version: "1" }, entries } }),
  );
  return file;
}

describe("pnpm drift:record", () => {
  it("prints its usage with --help", async () => {
    const { code, stdout } = await run("record", ["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: pnpm drift:record --target <base URL>/);
    for (const flag of ["--target", "--port", "--host", "--out", "--public-url"])
      expect(stdout).toContain(flag);
  });

  it.each([
    [[], /--target: required/],
    [["--target", "127.0.0.1:4010"], /--target: must be an absolute http: or https: URL/],
    [["--target", "http://127.0.0.1:4010", "--port", "70000"], /--port: must be an integer from 0 to 65535/],
    [["--target", "http://127.0.0.1:4010", "--bogus"], /unknown option --bogus\b/],
    [["--target", "http://127.0.0.1:4010", "stray"], /pnpm drift:record takes no positional arguments/],
  ])("refuses %j with exit 2 and a clear message", async (args, message) => {
    const { code, stderr } = await run("record", args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stderr).toContain("pnpm drift:record --help");
  });

  it("never overwrites a recording", async () => {
    await writeFile(join(dir(), "taken.har"), "{}");
    const { code, stderr } = await run("record", ["--target", "http://127.0.0.1:4010", "--out", "taken.har"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(dir(), "taken.har")} exists`);
  });
});

describe("pnpm drift:check", () => {
  it("prints its usage with --help, saying that a raw HAR holds secrets", async () => {
    const { code, stdout } = await run("check", ["--help"]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: pnpm drift:check <recording.har>/);
    expect(stdout).toMatch(/raw HAR from any other proxy or a\nbrowser holds every token and secret/);
  });

  it.each([
    [[], /<recording.har>: required/],
    [["a.har", "b.har"], /one recording at a time \(got 2/],
    [["--format", "xml", "x.har"], /--format: must be one of pretty, json, csv, sarif \(got "xml"\)/],
  ])("refuses %j with exit 2 and a clear message", async (args, message) => {
    await writeFile(join(dir(), "x.har"), "{}");
    const { code, stderr } = await run("check", args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  // Each refused before redocly runs: one line naming the file, exit 2 (1 means a finding).
  it.each([
    ["missing.har", undefined, "not found"],
    ["folder.har", "directory", "is a directory, not a HAR file"],
    [
      "text.har",
      "not json at all\n",
      "is not valid JSON: Unexpected token 'o', \"not json at all\\n\" is not valid JSON",
    ],
    [
      "truncated.har",
      '{"log": {"entries": [{"request": ',
      "is not valid JSON: it ends too early (an empty or truncated recording?)",
    ],
    ["empty.har", "", "is not valid JSON: it ends too early (an empty or truncated recording?)"],
    ["array.har", "[]", 'is not a HAR recording: no "log" object at the top (got an array)'],
    [
      "object-entries.har",
      '{"log": {"entries": {}}}',
      "is not a HAR recording: log.entries must be an array (got object)",
    ],
    [
      "no-entries.har",
      '{"log": {"version": "1.2", "entries": []}}',
      "has no entries (log.entries is empty): nothing to check",
    ],
    [
      "no-request.har",
      '{"log": {"entries": [{"response": {"status": 200, "headers": []}}]}}',
      "is not a HAR recording: log.entries[0].request: must be an object (got nothing)",
    ],
    [
      "text-status.har",
      '{"log": {"entries": [{"request": {"method": "GET", "url": "http://x/", "headers": []}, "response": {"status": "200", "headers": []}}]}}',
      "is not a HAR recording: log.entries[0].response.status: must be a number (got string)",
    ],
  ])("refuses %s (unusable input) in one line with exit 2", async (name, content, problem) => {
    const file = join(dir(), name);
    if (content === "directory") await mkdir(file, { recursive: true });
    else if (content !== undefined) await writeFile(file, content);
    const { code, stdout, stderr } = await run("check", [name]);
    expect(stderr).toBe(`drift:check: ${file}: ${problem}\n`);
    expect(code).toBe(2);
    expect(stdout).toBe("");
  });

  it("reports an unexpected failure of redocly in one line with exit 2, its stack trace only with --debug", async () => {
    await har("ok.har", [exchange("/api/2.1/version", [], 200, {})]);
    // Redocly fails writing its report into a directory: its own unexpected error, not a finding.
    await mkdir(join(dir(), "report-dir"), { recursive: true });
    const plain = await run("check", ["ok.har", "--output", "report-dir"]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /\ndrift:check: redocly drift failed unexpectedly on .*ok\.har: Error: EISDIR: .*report-dir'? \(--debug prints its stack trace\)\n$/,
    );
    expect(plain.stderr).not.toMatch(/An unexpected error occurred|\n\s+at /);
    const debug = await run("check", ["ok.har", "--output", "report-dir", "--debug"]);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(
      /An unexpected error occurred[\s\S]*\n\s+at [\s\S]*\ndrift:check: redocly drift failed unexpectedly on /,
    );
  });

  it("exits 0 on a clean recording and prints the coverage", async () => {
    const file = await har("clean.har", [
      exchange("/.well-known/oauth-authorization-server", [], 200, {
        token_endpoint: "http://127.0.0.1:4010/daas/oauth/token",
      }),
    ]);
    const { code, stdout, stderr } = await run("check", ["clean.har"]);
    expect(stderr).not.toMatch(/drift:check: warning/);
    expect(code, stdout).toBe(0);
    expect(stdout).toMatch(/operations\s.*\s1\/\d+/);
    expect(file).toBe(join(dir(), "clean.har"));
  });

  it("exits 1 on an error finding, and warns about a raw recording", async () => {
    await har("raw.har", [
      exchange("/api/2/version", [], 401, {
        ID: "unauthorized",
        id: "unauthorized",
        description: "no token",
      }),
      exchange("/api/2.1/version", [{ name: "Authorization", value: "Bearer abcdefghijklmnop" }], 200, {}),
    ]);
    const { code, stdout, stderr } = await run("check", ["raw.har", "--format", "json"]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/warning: .*raw\.har shows the Authorization header: it is a raw recording/);
    expect(stdout).toMatch(/"security-baseline"/);
  });
});
