import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Sandbox, startSandbox } from "@drill-practice/sandbox";
import { runProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, redisAvailable, startRedisServer } from "../packages/auth/test/redis-server.ts";

const hasRedis = redisAvailable();
const root = fileURLToPath(new URL("..", import.meta.url));
const dir = scratchDirForAll("drill-examples-");
let sandbox: Sandbox;
let env: NodeJS.ProcessEnv;
const requests: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, credentialsDir: dir(), onRequest: (line) => requests.push(line) });
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("DRILL_")),
  );
  env = { ...clean, PATH: `${join(root, "node_modules/.bin")}${delimiter}${process.env.PATH}` };
});

afterAll(async () => {
  await sandbox?.close();
});

/**
 * Runs a command the way a user would: after `set -a; . client.env; set +a`.
 * Asynchronously, because the sandbox answering it lives in this process.
 */
async function run(
  command: string,
  args: string[],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = 'set -a; . "$1"; set +a; shift; exec "$@"';
  const argv = ["-c", script, "run", join(dir(), "client.env"), command, ...args];
  const { exitCode, stdout, stderr } = await runProcess({
    command: "bash",
    args: argv,
    cwd: root,
    env,
    timeoutMs: 60_000,
  });
  return { status: exitCode ?? 1, stdout, stderr };
}
const tokenRequests = () => requests.filter((line) => line.includes("/daas/oauth/token")).length;

describe("examples, run against the sandbox", () => {
  it("search-and-practise.ts searches with two fields and answers one question", async () => {
    const result = await run(process.execPath, [
      "--import",
      "tsx",
      "examples/search-and-practise.ts",
      "spanish AND animals",
    ]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+ drillables match "spanish AND animals"/m);
    expect(result.stdout).toMatch(/^- [\w-]+: .*Spanish/m);
    expect(result.stdout).toMatch(/choices: .+ \| .+/);
    // The observed answer reply: the result, one evaluation per given and per missed term, proficiency.
    const answered = /answered "(.+)": (CORRECT|INCORRECT) \((.+)\), proficiency (\d+)/.exec(result.stdout);
    expect(answered).not.toBeNull();
    const [, given, verdict, terms] = answered as RegExpExecArray;
    expect(terms?.split(", ")[0]).toBe(`${given} ${verdict}`);
    if (verdict === "INCORRECT") expect(terms).toMatch(/ MISSED$/);
  });

  it("token-for-curl.sh gets a token with drill-token and searches with curl", async () => {
    const result = await run("bash", ["examples/token-for-curl.sh", "geography"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const body = JSON.parse(result.stdout) as { total: number; drills: { name: string }[] };
    expect(body.total).toBeGreaterThan(0);
    expect(body.drills.length).toBeLessThanOrEqual(3);
  });

  describe.runIf(hasRedis)("with a real redis-server", () => {
    let redis: RedisServer;
    // redis-server can take a while to answer on a loaded machine.
    beforeAll(async () => {
      redis = await startRedisServer();
    }, 30_000);
    afterAll(async () => {
      await redis?.close();
    });

    it("shared-token-cache.ts: three processes started together share one token through Redis", async () => {
      const before = tokenRequests();
      const runs = await Promise.all(
        [1, 2, 3].map(() =>
          run(process.execPath, ["--import", "tsx", "examples/shared-token-cache.ts", redis.url]),
        ),
      );
      for (const result of runs) {
        expect(result.status, result.stderr).toBe(0);
        expect(result.stderr).toBe("");
        expect(result.stdout).toMatch(/\d+ drillables about geography/);
      }
      const jtis = runs.map((result) => /token jti=(\S+)/.exec(result.stdout)?.[1]);
      expect(jtis[0]).toBeTruthy();
      expect(new Set(jtis).size).toBe(1);
      expect(tokenRequests() - before).toBe(1);
    });
  });
});
