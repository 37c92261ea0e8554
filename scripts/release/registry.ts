/**
 * A throwaway npm registry for the release dry run: Verdaccio on 127.0.0.1 at a free port, with
 * its storage in a scratch directory. `@drill-practice/*` lives only there (never looked up
 * upstream, so nothing is fetched from or published to the public registry under that scope);
 * every other package is proxied from the npm registry the machine already uses.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { type StartedProcess, startProcess } from "@drill-practice/tooling/process";

/** A running local registry. */
export interface LocalRegistry {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  /** A publish token of the registry's one user. */
  readonly token: string;
  /** The `.npmrc` lines that point npm and pnpm at it, with the token. */
  readonly npmrc: string;
  stop(): Promise<void>;
}

function config(storage: string, upstream: string): string {
  return `storage: ${JSON.stringify(storage)}
auth:
  htpasswd:
    file: ${JSON.stringify(join(storage, "htpasswd"))}
    max_users: 1
uplinks:
  npmjs:
    url: ${JSON.stringify(upstream)}
    # On a busy machine an upstream answer can take longer than Verdaccio's 30 s; two such answers
    # would mark the upstream down for 5 minutes and every later package would be a 404 (seen in CI
    # as "@types/node@20 could not be found").
    timeout: 120s
    max_fails: 20
    fail_timeout: 5s
packages:
  "@drill-practice/*":
    access: $all
    publish: $authenticated
  "**":
    access: $all
    proxy: npmjs
log: { type: stdout, format: pretty, level: warn }
web: { enable: false }
`;
}

/** Registers the registry's one user and returns its token (what `npm adduser` does). */
async function addUser(url: string): Promise<string> {
  const name = "release-dry-run";
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, password: `dry-run-${process.pid}-${Date.now()}`, type: "user", roles: [] }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || typeof body.token !== "string")
    throw new Error(`local registry: adding its user failed (${response.status} ${body.error ?? ""})`);
  return body.token;
}

/**
 * Starts Verdaccio (the pinned dev dependency) with storage under `dir`, proxying `upstream`.
 *
 * @example
 * ```ts
 * import { startLocalRegistry } from "./registry.ts";
 *
 * const registry = await startLocalRegistry("/tmp/registry", "https://registry.npmjs.org/");
 * console.log(registry.url); // http://127.0.0.1:<port>/
 * await registry.stop();
 * ```
 */
export async function startLocalRegistry(dir: string, upstream: string): Promise<LocalRegistry> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, "config.yaml");
  await writeFile(file, config(join(dir, "storage"), upstream));
  const port = await closedLoopbackPort();
  const bin = createRequire(import.meta.url).resolve("verdaccio/bin/verdaccio");
  const server: StartedProcess = await startProcess({
    command: process.execPath,
    args: [bin, "--config", file, "--listen", `127.0.0.1:${port}`],
    cwd: dir,
    env: process.env,
    readyWhen: /http address/,
    startMs: 60_000,
    name: "verdaccio",
  });
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    server.child.kill("SIGTERM");
    await server.exited();
  };
  try {
    const token = await addUser(url);
    const npmrc = `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`;
    return { url, token, npmrc, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
