/**
 * The two commands' surfaces: usage, argument errors (exit 2), and drift:check's exit status
 * (1 on an error finding, 0 on a clean recording) and its warning on a raw recording.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HarEntry } from "./redact-har.ts";
import { ROOT } from "./redocly.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "drill-drift-commands-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function run(
  script: "record" | "check",
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", join(ROOT, `scripts/drift/${script}.ts`), ...args],
      { cwd: ROOT, env: { ...process.env, INIT_CWD: dir }, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
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
  const file = join(dir, name);
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
    await writeFile(join(dir, "taken.har"), "{}");
    const { code, stderr } = await run("record", ["--target", "http://127.0.0.1:4010", "--out", "taken.har"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(dir, "taken.har")} exists`);
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
    [["missing.har"], /missing\.har: not found/],
    [["--format", "xml", "x.har"], /--format: must be one of pretty, json, csv, sarif \(got "xml"\)/],
  ])("refuses %j with exit 2 and a clear message", async (args, message) => {
    await writeFile(join(dir, "x.har"), "{}");
    const { code, stderr } = await run("check", args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
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
    expect(file).toBe(join(dir, "clean.har"));
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
