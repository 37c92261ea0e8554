/**
 * The reports `pnpm test` must leave behind, relative to the repository root: one per task that
 * `//#test:summary` depends on in turbo.json, read from turbo.json itself (the task's `.reports/`
 * output, from the package's own turbo.json where it overrides the task). A missing report means
 * its task did not run, which the summary counts as a failure; a task added to the summary's list
 * is expected without anyone copying it here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

interface TurboConfig {
  tasks: Record<string, { dependsOn?: string[]; outputs?: string[] }>;
}

const root = fileURLToPath(new URL("..", import.meta.url));

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}

/** Package name → folder (relative to the root), for the folders pnpm-workspace.yaml lists. */
function workspaceFolders(): Map<string, string> {
  const folders = new Map<string, string>();
  const candidates = ["spec", ...readdirSync(join(root, "packages")).map((name) => `packages/${name}`)];
  for (const folder of candidates) {
    const manifest = join(root, folder, "package.json");
    if (existsSync(manifest)) folders.set(readJson<{ name: string }>(manifest).name, folder);
  }
  return folders;
}

/** The one `.reports/…` file among a task's outputs; a summary task without one is a mistake in turbo.json. */
function reportOf(task: string, outputs: readonly string[] | undefined): string {
  const report = outputs?.find((output) => output.startsWith(".reports/"));
  if (report === undefined)
    throw new Error(`turbo.json: ${task} is in //#test:summary but has no .reports/ output`);
  return report;
}

function expectedReports(): string[] {
  const turbo = readJson<TurboConfig>(join(root, "turbo.json"));
  const folders = workspaceFolders();
  return (turbo.tasks["//#test:summary"]?.dependsOn ?? []).map((task) => {
    const [owner, name] = task.split("#") as [string, string];
    if (owner === "//") return reportOf(task, turbo.tasks[task]?.outputs);
    const folder = folders.get(owner);
    if (folder === undefined) throw new Error(`turbo.json: ${task} names no workspace package`);
    const own = join(root, folder, "turbo.json");
    const override = existsSync(own) ? readJson<TurboConfig>(own).tasks[name] : undefined;
    return `${folder}/${reportOf(task, override?.outputs ?? turbo.tasks[name]?.outputs)}`;
  });
}

export const EXPECTED_REPORTS: readonly string[] = expectedReports();
