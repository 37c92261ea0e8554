import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The environment minus any DRILL_* settings of the developer's own deployment. */
function withoutDrillVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DRILL_")));
}

describe("pnpm demo (scripts/demo.ts against the embedded sandbox)", () => {
  it("runs the whole integration and exits 0 with a readable transcript", () => {
    const env = withoutDrillVariables();
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      cwd: root,
      env,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.stderr).not.toMatch(/demo failed/);
    expect(run.status).toBe(0);
    const transcript = run.stdout;
    expect(transcript).toMatch(/token_endpoint: http:\/\/127\.0\.0\.1:\d+\/daas\/oauth\/token/);
    expect(transcript).toMatch(/service account svc-sandbox-academy: AccessToken\(.*value=\[redacted\]\)/);
    expect(transcript).toMatch(/managed user ana\.garcia@academy\.example: AccessToken/);
    expect(transcript).toMatch(/"spanish AND animals" \(all words\): 3 found/);
    expect(transcript).toMatch(/catalog catalog-academy-business, sorted by name: 9 found/);
    const pages = transcript.match(/page \d+: results/g) ?? [];
    expect(pages.length).toBeGreaterThan(1);
    expect(transcript).toMatch(/(\d+) drillables, \1 distinct/);
    expect(transcript).toMatch(/8 right, 2 wrong/);
    expect(transcript).toMatch(/answers: 10, correct: 8/);
    expect(transcript).toMatch(/repertoire now holds 1: math-times-7/);
    expect(transcript).toMatch(/GET \/api\/2\/store → 400 query_missing/);
    // No secret ever reaches the transcript.
    expect(transcript).not.toMatch(/BEGIN PRIVATE KEY|client_secret|Bearer /);
  });

  it("refuses a half-configured remote target with a clear message", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/demo.ts"], {
      cwd: root,
      env: { ...withoutDrillVariables(), DRILL_BASE_URL: "http://127.0.0.1:9" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /needs these too: DRILL_CLIENT_ID, DRILL_CLIENT_SECRET, DRILL_KEY_FILE, DRILL_DEMO_SUBJECT/,
    );
  });
});
