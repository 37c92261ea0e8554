/**
 * The built `drill-sandbox` and `drill-token` bins together, the way the sandbox's README tells people to
 * use them. It lives at the root because the root depends on both packages (and runs after their
 * builds), while the sandbox package cannot depend on auth (auth tests against the sandbox).
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { execFile } from "node:child_process";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { exitOf, startProcess } from "@drill-practice/tooling/process";
import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
import { afterEach, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const binDir = join(root, "node_modules", ".bin");
const sandboxBin = join(root, "packages", "sandbox", "bin", "drill-sandbox.js");

const dir = scratchDirForEach("sandbox-cli-repo-");
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
});

/** The environment minus any DRILL_* settings of the developer's own deployment. */
function withoutDrillVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DRILL_")));
}

/** Starts the built sandbox CLI and resolves once it prints its base URL. */
async function launch(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const { child, ready } = await startProcess({
    command: process.execPath,
    args: [sandboxBin, ...args],
    cwd: root,
    env: withoutDrillVariables(),
    readyWhen: /listening on (http:\/\/\S+)/,
    startMs: 30_000,
    name: "drill-sandbox",
  });
  children.push(child);
  return { child, url: ready[1] as string };
}

describe("drill-sandbox --credentials-dir with drill-token", () => {
  it("gives what drill-token needs: set -a; . client.env; set +a; drill-token", async () => {
    const { child, url } = await launch(["--port", "0", "--credentials-dir", dir(), "--quiet"]);
    // Asynchronous on purpose: the sandbox runs in a child, but its output must keep being read.
    const { stdout } = await promisify(execFile)(
      "bash",
      ["-c", 'set -a; . "$1"; set +a; exec drill-token', "bash", join(dir(), "client.env")],
      {
        cwd: root,
        env: { ...withoutDrillVariables(), PATH: `${binDir}${delimiter}${process.env.PATH ?? ""}` },
        timeout: 30_000,
      },
    );
    const token = stdout.trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await fetch(`${url}/api/2.1/version`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const refused = await fetch(`${url}/api/2.1/version`, {
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(refused.status).toBe(401);

    child.kill("SIGTERM");
    expect(await exitOf(child)).toBe(0);
  });
});
