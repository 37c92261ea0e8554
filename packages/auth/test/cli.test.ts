import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli-run.js";
import { CLIENT_ID, CLIENT_SECRET, json, keyFileObject, rsaKeyPair } from "./helpers.js";
import { type HttpTokenServer, startHttpTokenServer } from "./http-token-server.js";
import { drillToken, type Run } from "./run-drill-token.js";

const packageDir = join(dirname(fileURLToPath(import.meta.url)), "..");

function expectCleanError(run: Run, code: number) {
  expect(run.code).toBe(code);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(/^drill-token: /);
  // No stack trace, no secret.
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toContain(CLIENT_SECRET);
}

const dir = scratchDirForAll("drill-token-cli-");
let server: HttpTokenServer;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startHttpTokenServer({
    spki: rsaKeyPair().spki,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
  });
  const keyFile = join(dir(), "sa.json");
  await writeFile(keyFile, JSON.stringify(keyFileObject()));
  env = {
    DRILL_BASE_URL: server.baseUrl,
    DRILL_CLIENT_ID: CLIENT_ID,
    DRILL_CLIENT_SECRET: CLIENT_SECRET,
    DRILL_KEY_FILE: keyFile,
  };
});

afterAll(async () => {
  await server?.close();
});

describe("drill-token", { timeout: 120_000 }, () => {
  it("prints usage with --help", async () => {
    const run = await drillToken(["--help"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toMatch(/^Usage: drill-token \[options\]/);
    for (const flag of [
      "--base-url",
      "--key-file",
      "--client-id",
      "--subject",
      "--token-endpoint",
      "--json",
    ]) {
      expect(run.stdout).toContain(flag);
    }
    expect(run.stdout).toContain("--client-secret-stdin");
    expect(run.stdout).toContain("DRILL_CLIENT_SECRET");
  });

  it("prints its version, read from package.json", async () => {
    const { version } = JSON.parse(await readFile(join(packageDir, "package.json"), "utf8")) as {
      version: string;
    };
    const run = await drillToken(["--version"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`drill-token ${version}\n`);
  });

  it("keeps its own hints whole: only secret values are redacted, not the words around them", async () => {
    const noKey = join(dir(), "no-key.json");
    const { material: _material, ...rest } = keyFileObject();
    await writeFile(noKey, JSON.stringify(rest));
    const run = await drillToken([], { ...env, DRILL_KEY_FILE: noKey });
    expectCleanError(run, 1);
    expect(run.stderr).toContain(
      "ERR_KEY_FILE_NO_PRIVATE_KEY: key file " +
        `${noKey}: no field holds a PEM private key (text starting with -----BEGIN PRIVATE KEY-----); ` +
        "use the JSON key file issued for the service account",
    );
    expect(run.stderr).not.toContain("[redacted]");
  });

  it("lists every missing setting", async () => {
    const run = await drillToken([]);
    expectCleanError(run, 2);
    expect(run.stderr).toContain(
      "missing DRILL_BASE_URL (or --base-url), DRILL_KEY_FILE (or --key-file), DRILL_CLIENT_ID (or --client-id), " +
        "DRILL_CLIENT_SECRET (or --client-secret-stdin)",
    );
    expect(run.stderr).toContain("Run drill-token --help for usage.");
  });

  it("refuses the client secret as a flag without echoing it", async () => {
    for (const args of [
      ["--client-secret", "hunter2-secret-value"],
      ["--client-secret=hunter2-secret-value"],
    ]) {
      const run = await drillToken(args, env);
      expectCleanError(run, 2);
      expect(run.stderr).toContain("the client secret is not accepted as a flag");
      expect(run.stderr).not.toContain("hunter2");
    }
  });

  it("rejects unknown options and positional arguments without echoing values", async () => {
    const unknown = await drillToken(["--token=abc123secret"], env);
    expectCleanError(unknown, 2);
    expect(unknown.stderr).toContain("unknown option --token");
    expect(unknown.stderr).not.toContain("abc123secret");
    const positional = await drillToken(["positional-secret-value"], env);
    expectCleanError(positional, 2);
    expect(positional.stderr).toContain("takes no positional arguments");
    expect(positional.stderr).not.toContain("positional-secret-value");
  });

  it("prints an access token obtained from the token server", async () => {
    const run = await drillToken([], env);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${server.issued.at(-1)}\n`);
    expect(run.stdout).toMatch(/^http-at-\d+-sa-81c2-SECRET\n$/);
  });

  it("prints the whole response with --json, for the subject given by flag over environment", async () => {
    const run = await drillToken(["--json", "--subject", "pat@example.com"], {
      ...env,
      DRILL_SUBJECT: "other",
    });
    expect(run.code).toBe(0);
    const response = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(response).toEqual({
      access_token: server.issued.at(-1),
      token_type: "bearer",
      expires_in: 3599,
      scope: "ROLE_USER",
      jti: expect.stringMatching(/^jti-\d+$/),
    });
    expect(response.access_token).toMatch(/-pat@example.com-SECRET$/);
  });

  it("reads the secret from stdin and takes the token endpoint from --token-endpoint", async () => {
    const { DRILL_CLIENT_SECRET: _secret, DRILL_BASE_URL: _base, ...rest } = env;
    const before = server.discoveryCalls();
    const run = await drillToken(
      ["--client-secret-stdin", "--token-endpoint", server.tokenEndpoint],
      rest,
      `${CLIENT_SECRET}\n`,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${server.issued.at(-1)}\n`);
    expect(server.discoveryCalls()).toBe(before);
    expect(server.requests.at(-1)?.get("client_secret")).toBe(CLIENT_SECRET);
  });

  it("fails with exit 1 and the OAuth error when the server refuses", async () => {
    const run = await drillToken([], { ...env, DRILL_CLIENT_SECRET: "wrong-secret-value" });
    expectCleanError(run, 1);
    expect(run.stderr).toContain('HTTP 401 invalid_client "client authentication failed"');
    expect(run.stderr).not.toContain("wrong-secret-value");
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("keeps every spelling of a short client secret out of its error output", async () => {
    const secret = "p+/ =";
    let stderr = "";
    // A token endpoint that quotes the form body it got, and a fetch error that quotes it too.
    for (const fail of ["echo", "throw"]) {
      stderr = "";
      const status = await runCli({
        argv: ["--token-endpoint", "https://auth.test/token"],
        env: { ...env, DRILL_BASE_URL: undefined, DRILL_CLIENT_SECRET: secret },
        stdin: (async function* () {})(),
        stdout: { write: () => true },
        stderr: { write: (text: string) => (stderr += text) },
        fetch: async (input) => {
          const body = await (input as Request).text();
          if (fail === "throw") throw new Error(`could not send ${body}`);
          return json({ error: "invalid_client", error_description: `got ${body}` }, { status: 401 });
        },
      });
      expect(status).toBe(1);
      expect(stderr).toContain("client_secret=[redacted]");
      for (const spelling of [secret, encodeURIComponent(secret), "p%2B%2F+%3D"]) {
        expect(stderr).not.toContain(spelling);
      }
    }
  });

  it("fails with exit 1 on a bad key file, naming it", async () => {
    const run = await drillToken(["--key-file", join(dir(), "missing.json")], env);
    expectCleanError(run, 1);
    expect(run.stderr).toContain(`key file ${join(dir(), "missing.json")}: cannot be read: no such file`);
  });
});

/** Runs `drill-token` in this process with the platform's fetch. */
async function inProcess(argv: string[], extraEnv: Record<string, string | undefined> = {}) {
  let stdout = "";
  let stderr = "";
  const status = await runCli({
    argv,
    env: { ...env, ...extraEnv },
    stdin: (async function* () {})(),
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { status, stdout, stderr };
}

describe("drill-token: usage errors name the flag and variable and quote the value", () => {
  it.each([
    [
      ["--base-url", "127.0.0.1:4010"],
      {},
      '--base-url (DRILL_BASE_URL) must be an absolute http(s) URL without credentials, such as https://drill.example (got "127.0.0.1:4010")',
    ],
    [
      [],
      { DRILL_BASE_URL: "localhost:4010" },
      '--base-url (DRILL_BASE_URL) must be an absolute http(s) URL without credentials, such as https://drill.example (got "localhost:4010")',
    ],
    [
      ["--token-endpoint", "/oauth/token"],
      {},
      '--token-endpoint must be an absolute http(s) URL without credentials, such as https://drill.example (got "/oauth/token")',
    ],
    [
      ["--timeout-ms", "1.5s"],
      {},
      '--timeout-ms (DRILL_TIMEOUT_MS) must be a whole number of milliseconds above 0 (got "1.5s")',
    ],
    [
      [],
      { DRILL_TIMEOUT_MS: "0" },
      '--timeout-ms (DRILL_TIMEOUT_MS) must be a whole number of milliseconds above 0 (got "0")',
    ],
    [
      ["--timeout-ms", "9999999999"],
      {},
      '--timeout-ms (DRILL_TIMEOUT_MS) is longer than a timer can wait (2147483647 at most) (got "9999999999")',
    ],
  ])("%j with %j: exit 2, one line and the usage hint", async (argv, extraEnv, message) => {
    // A key file that does not exist: the wrong value is reported first, as a usage error.
    const run = await inProcess(argv, { DRILL_KEY_FILE: join(dir(), "absent.json"), ...extraEnv });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(`drill-token: ERR_CLI_USAGE: ${message}\nRun drill-token --help for usage.\n`);
  });

  it("never quotes the credentials of a URL", async () => {
    const run = await inProcess(["--base-url", "https://me:hunter2-pass@drill.example"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('(got "https://[credentials]@drill.example")');
    expect(run.stderr).not.toContain("hunter2-pass");
  });
});

describe("drill-token --cache without the redis package", { timeout: 120_000 }, () => {
  it("names the package to install and the flag and variable, with the usage exit 2", async () => {
    // Node resolves `redis` as it would in a project that never installed it.
    const hideRedis = join(packageDir, "test", "fixtures", "without-redis.mjs");
    const run = await drillToken(["--cache", "redis://127.0.0.1:1"], env, "", [hideRedis]);
    expectCleanError(run, 2);
    expect(run.stderr).toBe(
      "drill-token: ERR_CLI_USAGE: --cache (DRILL_TOKEN_CACHE) needs the redis package, which is not installed: " +
        "install it next to @drill-practice/auth (npm install redis), or leave out --cache and DRILL_TOKEN_CACHE\n" +
        "Run drill-token --help for usage.\n",
    );
  });
});

describe("drill-token: a failed request says why", () => {
  it("a port the platform refuses: the reason is on the line, after one attempt", async () => {
    const run = await inProcess(["--base-url", "http://127.0.0.1:9"]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /^drill-token: ERR_DISCOVERY: .* GET http:\/\/127\.0\.0\.1:9\/\S+ failed without a response after 1 attempt: fetch failed \(bad port\)\n$/,
    );
  });
});
