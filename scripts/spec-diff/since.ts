/**
 * `pnpm spec:diff --since <ref>`: the description's bundles as they were at a commit, built from
 * that commit's `spec/` with its own bundle script, so the diff shows only what changed since then
 * (one's own edit) rather than everything since the release.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";

/**
 * Builds the bundles of `ref` into `<scratch>/spec/dist` and returns that directory. A ref git
 * does not know, or one without `spec/`, is an error naming the ref.
 */
export function bundlesAt(root: string, ref: string, scratch: string): string {
  const git = (args: string[], options: { input?: Buffer } = {}) =>
    execFileSync("git", args, { cwd: root, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 28, ...options });
  let commit: string;
  try {
    commit = git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])
      .toString()
      .trim();
  } catch {
    throw new Error(`--since ${ref}: git knows no such commit`);
  }
  mkdirSync(scratch, { recursive: true });
  let archive: Buffer;
  try {
    archive = git(["archive", "--format=tar", commit, "spec"]);
  } catch {
    throw new Error(`--since ${ref}: the commit has no spec/ directory`);
  }
  execFileSync("tar", ["-x", "-C", scratch], { input: archive });
  const specDir = join(scratch, "spec");
  // The commit's bundle script, run with today's installed tools (Redocly) beside it.
  symlinkSync(join(root, "spec/node_modules"), join(specDir, "node_modules"), "dir");
  try {
    execFileSync(join(root, "node_modules/.bin/tsx"), [join(specDir, "scripts/bundle.ts")], {
      cwd: specDir,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "")
      .trim()
      .split("\n")
      .at(-1);
    throw new Error(`--since ${ref}: the description at ${commit.slice(0, 12)} does not bundle (${stderr})`);
  }
  return join(specDir, "dist");
}
