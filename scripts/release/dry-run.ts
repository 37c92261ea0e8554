/**
 * The release rehearsed end to end, as users receive it: in a scratch copy of the repository the
 * maintainer's commands run for real (`pnpm run version`, `pnpm run release`) against a local
 * registry; then scratch projects install the packages from it with npm and with pnpm, type-check a
 * small program and run it against `drill-sandbox` started from the installed package. Before the
 * publish, the same pnpm install from packed tarballs is tried, and must fail as it does for users
 * today (`ERR_PNPM_FETCH_404`: a tarball's dependency on the client is looked up in the registry).
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type ProcessResult, runProcess, startProcess } from "@drill-practice/tooling/process";
import { type LocalRegistry, startLocalRegistry } from "./registry.ts";

/** The packages users install, as the dry run installs them. */
export const PUBLISHED = [
  "@drill-practice/client",
  "@drill-practice/auth",
  "@drill-practice/sandbox",
] as const;

/** One step of the dry run, for the report. */
export interface Step {
  readonly name: string;
  readonly seconds: number;
}

/** What the dry run found. */
export interface DryRunReport {
  readonly steps: readonly Step[];
  /** The version of each package the registry holds after `pnpm run release`. */
  readonly published: Readonly<Record<string, string>>;
  /** The pnpm install of the packed tarballs: its exit code and last error line. */
  readonly tarballInstall: { readonly exitCode: number | null; readonly error: string };
  /** The small program's output, per package manager. */
  readonly programOutput: Readonly<Record<"npm" | "pnpm", string>>;
  /** Each package's CHANGELOG.md after `changeset version`, its first entry. */
  readonly changelogs: Readonly<Record<string, string>>;
}

export interface DryRunOptions {
  /** The repository to copy (its tracked and untracked, not ignored, files). */
  readonly root: string;
  /** An empty scratch directory; the caller removes it. */
  readonly scratch: string;
  /** The registry every other package is proxied from (the machine's npm registry). */
  readonly upstream: string;
  readonly log?: (line: string) => void;
}

const MINUTES = 60_000;

/** Runs a command and fails with its output's tail when it fails. */
async function must(name: string, command: string, args: string[], cwd: string, timeoutMs = 10 * MINUTES) {
  const result = await run(command, args, cwd, timeoutMs);
  if (result.exitCode !== 0) {
    const tail = `${result.stdout}\n${result.stderr}`.trim().split("\n").slice(-25).join("\n");
    throw new Error(`release dry run: ${name} failed (exit ${result.exitCode}):\n${tail}`);
  }
  return result;
}

function run(command: string, args: string[], cwd: string, timeoutMs = 10 * MINUTES): Promise<ProcessResult> {
  return runProcess({
    command,
    args,
    cwd,
    env: {
      CI: "true",
      TURBO_TELEMETRY_DISABLED: "1",
      TURBO_NO_UPDATE_NOTIFIER: "1",
      npm_config_update_notifier: "false",
    },
    timeoutMs,
  });
}

/** Copies the working tree's files (what `git ls-files` lists, ignored ones left out) and commits them. */
async function copyRepository(root: string, to: string): Promise<void> {
  const files = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
    maxBuffer: 1 << 26,
  })
    .toString()
    .split("\0")
    .filter((file) => file !== "");
  for (const file of files) await cp(join(root, file), join(to, file), { force: true }).catch(() => {});
  // A repository of its own: `changeset publish` tags the release in git.
  const git = ["-c", "user.name=release dry run", "-c", "user.email=dry-run@localhost"];
  await must("git init", "git", ["init", "-q", "-b", "main"], to);
  await must("git add", "git", ["add", "-A"], to);
  await must("git commit", "git", [...git, "commit", "-q", "-m", "release dry run: the working tree"], to);
}

/** The first entry of a package's CHANGELOG.md, as `changeset version` wrote it. */
async function firstEntry(file: string): Promise<string> {
  const text = await readFile(file, "utf8");
  return text.split(/^## /m)[1]?.trim() ?? "";
}

/** The program the scratch projects type-check and run: one token, two calls, as the README shows. */
const PROGRAM = `import { serviceAccountAuth } from "@drill-practice/auth/node";
import { createDrillClient, unwrap } from "@drill-practice/client";

const need = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(\`\${name} is not set\`);
  return value;
};
const client = createDrillClient({
  baseUrl: need("DRILL_BASE_URL"),
  auth: serviceAccountAuth({
    keyFile: need("DRILL_KEY_FILE"),
    clientId: need("DRILL_CLIENT_ID"),
    clientSecret: need("DRILL_CLIENT_SECRET"),
  }),
});
const page = await unwrap(
  client.GET("/api/2/store", { params: { query: { query: "spanish", resultSize: "2" } } }),
);
const names: string[] = page.drills.map((drill) => drill.name);
console.log(\`store: \${page.total} drill(s), first \${JSON.stringify(names[0] ?? null)}\`);
`;

const TSCONFIG = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    types: ["node"],
    outDir: "out",
  },
  files: ["program.ts"],
};

/** `KEY=value` lines of the sandbox's client.env. */
function parseEnv(text: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1] as string] = (match[2] as string).replace(/^(["'])(.*)\1$/, "$2");
  }
  return env;
}

/**
 * A user's project: installs the packages from the registry with `manager`, type-checks the
 * program with the repository's TypeScript and runs it against `drill-sandbox` from the install.
 */
async function userProject(
  manager: "npm" | "pnpm",
  dir: string,
  registry: LocalRegistry,
  typescript: string,
): Promise<string> {
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({ name: "drill-user", private: true, type: "module" }),
  );
  await writeFile(join(dir, ".npmrc"), registry.npmrc);
  await writeFile(join(dir, "program.ts"), PROGRAM);
  await writeFile(join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
  const packages = [...PUBLISHED, "@types/node@20"];
  if (manager === "npm")
    await must("npm install", "npm", ["install", "--no-audit", "--no-fund", ...packages], dir);
  else await must("pnpm add", "pnpm", ["add", ...packages], dir);
  await must(
    `tsc (${manager} project)`,
    process.execPath,
    [typescript, "-p", "tsconfig.json"],
    dir,
    5 * MINUTES,
  );
  const sandbox = await startProcess({
    command: join(dir, "node_modules/.bin/drill-sandbox"),
    args: ["--port", "0", "--quiet", "--credentials-dir", join(dir, ".sandbox")],
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    readyWhen: /listening on (http:\S+)/,
    startMs: 2 * MINUTES,
    name: `drill-sandbox (${manager} install)`,
  });
  try {
    const env = parseEnv(await readFile(join(dir, ".sandbox/client.env"), "utf8"));
    const result = await runProcess({
      command: process.execPath,
      args: ["out/program.js"],
      cwd: dir,
      env,
      timeoutMs: 2 * MINUTES,
    });
    if (result.exitCode !== 0)
      throw new Error(`release dry run: the program (${manager} install) failed: ${result.stderr.trim()}`);
    return result.stdout.trim();
  } finally {
    sandbox.child.kill("SIGTERM");
    await sandbox.exited();
  }
}

/** The pnpm install of packed tarballs, with the registry not yet holding the packages. */
async function tarballInstall(repo: string, dir: string, registry: LocalRegistry) {
  const packed = join(dir, "tarballs");
  await mkdir(packed, { recursive: true });
  const filters = PUBLISHED.flatMap((name) => ["--filter", name]);
  await must("pnpm pack", "pnpm", [...filters, "pack", "--pack-destination", packed], repo);
  const tarballs = (execFileSync("ls", [packed]).toString().trim().split("\n") as string[]).map((file) =>
    join(packed, file),
  );
  const project = join(dir, "project");
  await mkdir(project, { recursive: true });
  await writeFile(join(project, "package.json"), JSON.stringify({ name: "drill-tarballs", private: true }));
  await writeFile(join(project, ".npmrc"), registry.npmrc);
  const result = await run("pnpm", ["add", ...tarballs], project);
  const error =
    `${result.stdout}\n${result.stderr}`.split("\n").find((line) => line.includes("ERR_PNPM")) ?? "";
  return { exitCode: result.exitCode, error: error.trim() };
}

/** The versions the registry holds for the published packages. */
async function registryVersions(registry: LocalRegistry): Promise<Record<string, string>> {
  const versions: Record<string, string> = {};
  for (const name of PUBLISHED) {
    const response = await fetch(new URL(name.replace("/", "%2F"), registry.url));
    const body = (await response.json()) as { "dist-tags"?: { latest?: string } };
    versions[name] = body["dist-tags"]?.latest ?? `none (${response.status})`;
  }
  return versions;
}

/**
 * Runs the whole dry run in `options.scratch` and reports what it found; throws, naming the step
 * and with its output's tail, at the first step that fails. The registry is stopped either way.
 *
 * @example
 * ```ts
 * import { releaseDryRun } from "./dry-run.ts";
 *
 * const report = await releaseDryRun({
 *   root: process.cwd(),
 *   scratch: "/tmp/release-dry-run",
 *   upstream: "https://registry.npmjs.org/",
 * });
 * console.log(report.published["@drill-practice/client"]);
 * ```
 */
export async function releaseDryRun(options: DryRunOptions): Promise<DryRunReport> {
  const { root, scratch, upstream } = options;
  const log = options.log ?? (() => {});
  const steps: Step[] = [];
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    log(`release dry run: ${name}…`);
    const value = await work();
    steps.push({ name, seconds: Math.round((performance.now() - started) / 100) / 10 });
    return value;
  };
  const repo = join(scratch, "repo");
  const typescript = join(root, "node_modules/typescript/bin/tsc");
  await step("copy the repository", () => copyRepository(root, repo));
  await step("install (offline, from the store)", () =>
    must("pnpm install", "pnpm", ["install", "--frozen-lockfile", "--offline", "--ignore-scripts"], repo),
  );
  await step("pnpm run version", () => must("pnpm run version", "pnpm", ["run", "version"], repo));
  const changelogs: Record<string, string> = {};
  for (const dir of ["client", "auth", "sandbox"])
    changelogs[`@drill-practice/${dir}`] = await firstEntry(join(repo, "packages", dir, "CHANGELOG.md"));
  await step("build the published packages", () =>
    must(
      "turbo build",
      "pnpm",
      ["exec", "turbo", "run", "build", ...PUBLISHED.map((name) => `--filter=${name}`)],
      repo,
    ),
  );
  const registry = await step("start the local registry", () =>
    startLocalRegistry(join(scratch, "registry"), upstream),
  );
  try {
    const tarballs = await step("pnpm install of the packed tarballs", () =>
      tarballInstall(repo, join(scratch, "tarballs"), registry),
    );
    await writeFile(join(repo, ".npmrc"), registry.npmrc);
    await step("pnpm run release", () => must("pnpm run release", "pnpm", ["run", "release"], repo));
    const published = await registryVersions(registry);
    const npm = await step("npm project: install, type-check, run", () =>
      userProject("npm", join(scratch, "npm-project"), registry, typescript),
    );
    const pnpm = await step("pnpm project: install, type-check, run", () =>
      userProject("pnpm", join(scratch, "pnpm-project"), registry, typescript),
    );
    return { steps, published, tarballInstall: tarballs, programOutput: { npm, pnpm }, changelogs };
  } finally {
    await registry.stop();
  }
}
