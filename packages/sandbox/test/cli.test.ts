/**
 * The `drill-sandbox` CLI, run from source with tsx as a child process. (Its end-to-end run with
 * `drill-token` is in the repository's `scripts/sandbox-cli.test.ts`: this package cannot depend on auth.)
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { exitOf, startProcess } from "@drill-practice/tooling/process";
import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
import { afterEach, describe, expect, it } from "vitest";
import type { SandboxCredentials } from "../src/index.js";
import { client, type TestSandbox, tokenFor } from "./support/helpers.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const cliSource = join(packageDir, "src", "cli.ts");

const dir = scratchDirForEach("sandbox-cli-");
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

function run(args: string[]) {
  return promisify(execFile)(process.execPath, ["--import", "tsx", cliSource, ...args], {
    cwd: packageDir,
    // A CLI that never ends (as with --credentials-dir under /proc before) is killed, not leaked.
    timeout: 100_000,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** Starts the CLI and resolves once it prints its base URL. */
async function launch(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const started = startProcess({
    command: process.execPath,
    args: ["--import", "tsx", cliSource, ...args],
    cwd: packageDir,
    env,
    readyWhen: /listening on (http:\/\/\S+)/,
    startMs: 30_000,
    name: "CLI",
  });
  const { child, ready, output } = await started;
  children.push(child);
  return { child, url: ready[1] as string, output };
}

/**
 * The CLI's sandbox as the flow tests' helpers see one, from the credentials files it wrote, so they
 * can sign an assertion and call the API the way any client does.
 */
async function fromCredentialsFiles(url: string, creds: string): Promise<TestSandbox> {
  const env = Object.fromEntries(
    (await readFile(join(creds, "client.env"), "utf8"))
      .split("\n")
      .map((line) => /^(\w+)=['"]?(.*?)['"]?$/.exec(line))
      .flatMap((m) => (m ? [[m[1], m[2]]] : [])),
  ) as Record<string, string>;
  const keyFile = JSON.parse(await readFile(join(creds, "service-account.json"), "utf8"));
  const credentials = {
    clientId: env.DRILL_CLIENT_ID,
    clientSecret: env.DRILL_CLIENT_SECRET,
    keyFile: () => keyFile,
  };
  return {
    url,
    tokenEndpoint: `${url}/daas/oauth/token`,
    credentials: credentials as unknown as SandboxCredentials,
    fetch: globalThis.fetch,
  } as TestSandbox;
}

// Each test starts one or two tsx processes: on a loaded two-core machine one start takes 30 s.
describe("drill-sandbox CLI", { timeout: 120_000 }, () => {
  it("starts, writes credentials, serves discovery and stops with exit 0 on SIGTERM", {
    timeout: 60_000,
  }, async () => {
    const creds = join(dir(), "creds");
    const { child, url, output } = await launch(["--port", "0", "--credentials-dir", creds, "--quiet"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect.poll(output).toContain(join(creds, "client.env"));
    expect(output()).toContain(join(creds, "service-account.json"));

    const res = await fetch(`${url}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toEqual({ issuer: url, token_endpoint: `${url}/daas/oauth/token` });
    expect((await stat(join(creds, "client.env"))).mode & 0o777).toBe(0o600);
    expect((await stat(join(creds, "service-account.json"))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(creds, "client.env"), "utf8")).toContain(`DRILL_BASE_URL=${url}`);

    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });

  it("stops with exit 0 on SIGINT, removing its temporary credentials directory", {
    timeout: 60_000,
  }, async () => {
    const { child, output } = await launch(["--port", "0"]);
    await expect.poll(output).toMatch(/credentials: (\S+)client\.env/);
    const envFile = /credentials: (\S+client\.env)/.exec(output())?.[1] ?? "";
    expect(existsSync(envFile)).toBe(true);
    child.kill("SIGINT");
    expect(await exitOf(child)).toBe(0);
    expect(existsSync(envFile)).toBe(false);
  });

  it("keeps a created group across a restart with --state, written back on SIGINT", {
    timeout: 100_000,
  }, async () => {
    const stateFile = join(dir(), "state.json");
    const creds = join(dir(), "creds");
    const args = ["--port", "0", "--credentials-dir", creds, "--quiet", "--state", stateFile];
    const first = await launch(args);
    const sandbox = await fromCredentialsFiles(first.url, creds);
    const sa = client(sandbox, await tokenFor(sandbox));
    const created = await sa("POST", "/api/2.1/groups", {
      body: { name: "Kept", description: "across runs" },
    });
    expect(created.status).toBe(200);
    const id = (created.body as { id: string }).id;
    first.child.kill("SIGINT");
    expect(await exitOf(first.child)).toBe(0);
    expect(first.output()).toContain(`state written to ${stateFile}`);
    const saved = JSON.parse(await readFile(stateFile, "utf8")) as {
      formatVersion: number;
      groups: { id: string }[];
    };
    expect(saved.formatVersion).toBe(1);
    expect(saved.groups.map((g) => g.id)).toContain(id);

    const second = await launch(args);
    const again = await fromCredentialsFiles(second.url, creds);
    const group = await client(again, await tokenFor(again))("GET", `/api/2.1/group/${id}`);
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ id, name: "Kept", description: "across runs" });
    second.child.kill("SIGTERM");
    expect(await exitOf(second.child)).toBe(0);
  });

  it("logs requests unless --quiet", { timeout: 60_000 }, async () => {
    const { child, url, output } = await launch(["--port", "0", "--credentials-dir", dir()]);
    await fetch(`${url}/api/2.1/version`);
    await expect.poll(output).toMatch(/GET \/api\/2\.1\/version 401 getVersion_v2_1 \d+ms/);
    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });

  it("advertises --public-url (or DRILL_SANDBOX_PUBLIC_URL) in discovery and client.env", {
    timeout: 60_000,
  }, async () => {
    const { child, url, output } = await launch(
      ["--port", "0", "--credentials-dir", dir(), "--quiet", "--public-url", "http://127.0.0.1:4040"],
      { ...process.env, DRILL_SANDBOX_PUBLIC_URL: "http://ignored.test" },
    );
    await expect.poll(output).toContain("token endpoint: http://127.0.0.1:4040/daas/oauth/token");
    expect(output()).toContain("public URL: http://127.0.0.1:4040\n");
    const res = await fetch(`${url}/.well-known/oauth-authorization-server`);
    expect(await res.json()).toEqual({
      issuer: "http://127.0.0.1:4040",
      token_endpoint: "http://127.0.0.1:4040/daas/oauth/token",
    });
    expect(await readFile(join(dir(), "client.env"), "utf8")).toContain(
      "DRILL_BASE_URL=http://127.0.0.1:4040\n",
    );
    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);

    const fromEnv = await launch(["--port", "0", "--quiet"], {
      ...process.env,
      DRILL_SANDBOX_PUBLIC_URL: "https://proxy.test",
    });
    await expect.poll(fromEnv.output).toContain("token endpoint: https://proxy.test/daas/oauth/token");
    fromEnv.child.kill("SIGTERM");
    expect(await exitOf(fromEnv.child)).toBe(0);
  });

  it("answers CORS for each origin of --cors (repeated or comma-separated), and for no other", {
    timeout: 60_000,
  }, async () => {
    const { child, url, output } = await launch([
      "--port",
      "0",
      "--quiet",
      "--cors",
      "http://127.0.0.1:8080, http://localhost:8080",
      "--cors",
      "https://app.example.test",
    ]);
    await expect
      .poll(output)
      .toContain(
        "CORS allowed for: http://127.0.0.1:8080, http://localhost:8080, https://app.example.test\n",
      );
    for (const origin of ["http://localhost:8080", "https://app.example.test"]) {
      const res = await fetch(`${url}/api/2.1/version`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET" },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    }
    const other = await fetch(`${url}/api/2.1/version`, { headers: { origin: "http://127.0.0.1:9999" } });
    expect(other.status).toBe(401);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });

  it("prints help, and the README's option table lists every flag of it", async () => {
    const { code, stdout } = await run(["--help"]);
    expect(code).toBe(0);
    const readme = await readFile(join(packageDir, "README.md"), "utf8");
    const table = readme
      .split("\n")
      .filter((line) => line.startsWith("| `-"))
      .join("\n");
    const flags = [...new Set(stdout.match(/(?<![\w-])--[a-z][a-z-]+/g))];
    expect(flags.length).toBeGreaterThan(8);
    expect(flags.filter((flag) => !table.includes(`\`${flag}`))).toEqual([]);
    expect(stdout).toContain("Usage: drill-sandbox");
    for (const flag of [
      "--port",
      "--host",
      "--data",
      "--credentials-dir",
      "--token-lifetime",
      "--public-url",
      "--cors",
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it.each([
    [["--port", "http"], '--port must be an integer from 0 to 65535 (got "http")'],
    [["--token-lifetime", "0"], '--token-lifetime must be an integer from 1 to 86400 (got "0")'],
    [["--bogus=1"], "unknown option --bogus"],
    [["--port"], "--port needs a value"],
    [
      ["--public-url", "http://127.0.0.1:4040/"],
      '--public-url (DRILL_SANDBOX_PUBLIC_URL) must be an absolute http: or https: URL without credentials, query, fragment or trailing slash (got "http://127.0.0.1:4040/")',
    ],
    [
      ["--cors", "http://127.0.0.1:8080/docs"],
      '--cors must be an origin, scheme://host[:port] with an http: or https: scheme and no path, query, fragment, credentials or trailing slash (such as http://127.0.0.1:8080) (got "http://127.0.0.1:8080/docs")',
    ],
    [
      ["--cors", "http://a.test,localhost:8080"],
      '--cors must be an origin, scheme://host[:port] with an http: or https: scheme and no path, query, fragment, credentials or trailing slash (such as http://127.0.0.1:8080) (got "localhost:8080")',
    ],
  ])(
    "refuses %j with exit 2: one line in drill-token's style, then the usage hint",
    async (args, message) => {
      const { code, stdout, stderr } = await run(args);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr).toBe(`drill-sandbox: ${message}\nRun drill-sandbox --help for usage.\n`);
    },
  );

  it("refuses a positional argument with exit 2 in one line that names it, quoted, once", async () => {
    // The value of an option is not the stray word: `--port 0 extra` names `extra`.
    const { code, stdout, stderr } = await run(["--port", "0", "extra"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toBe('drill-sandbox: unexpected argument "extra": only options are taken (see --help)\n');
  });

  it("names files and directories by their flag's words, not the API's option names", async () => {
    const responses = await run(["--port", "0", "--responses", join(dir(), "none.json")]);
    expect(responses.code).toBe(1);
    expect(responses.stderr).toBe(`drill-sandbox: responses file ${join(dir(), "none.json")}: not found\n`);
    // A path no one can create (Node 20's recursive mkdir never returned for it): refused at once.
    const started = performance.now();
    const credentials = await run(["--port", "0", "--credentials-dir", "/proc/drill-sandbox-nope"]);
    expect(credentials.code).toBe(1);
    expect(credentials.stderr).toMatch(
      /^drill-sandbox: --credentials-dir: cannot write credentials to \/proc\/drill-sandbox-nope: ENOENT[^\n]*\n$/,
    );
    expect(performance.now() - started).toBeLessThan(60_000);
  });

  it("reports a bad data file with exit 1 and the problem's location", async () => {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(join(dir(), "bad.json"), JSON.stringify({ organizations: [], users: [], drills: [] }));
    const { code, stderr } = await run(["--port", "0", "--data", join(dir(), "bad.json")]);
    expect(code).toBe(1);
    expect(stderr).toContain("$.organizations");
    expect(stderr).not.toMatch(/\n\s+at /);
    const missing = await run(["--port", "0", "--data", join(dir(), "none.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/none\.json: not found/);
  });

  it("quotes the excerpt of a data or responses file that is not JSON on one line, escaped", async () => {
    const { writeFile } = await import("node:fs/promises");
    const file = join(dir(), "notes.json");
    // What an editor saves: text and a final line break, which the excerpt of JSON.parse includes.
    await writeFile(file, "not json at all\n");
    const excerpt = `Unexpected token 'o', "not json at all\\n" is not valid JSON`;
    const data = await run(["--port", "0", "--data", file]);
    expect(data.code).toBe(1);
    expect(data.stderr).toBe(
      `drill-sandbox: data file ${file} has 1 problem:\n  $: is not valid JSON: ${excerpt}\n`,
    );
    const responses = await run(["--port", "0", "--responses", file]);
    expect(responses.code).toBe(1);
    expect(responses.stderr).toBe(
      `drill-sandbox: responses file ${file} refused, nothing applied; 1 problem:\n  $: is not valid JSON (${excerpt})\n`,
    );
  });
});
