/**
 * The scratch project every runtime runs in, made as a user would: `pnpm pack` of the client and
 * auth packages, the two tarballs installed with npm into a folder outside the workspace, and the
 * matrix's entries built next to them. Workers and browsers get bundles made with esbuild from
 * that installed copy, never from the workspace sources.
 */
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runProcess } from "@drill-practice/tooling/process";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { build } from "esbuild";

const packagesDir = fileURLToPath(new URL("../../", import.meta.url));
const entriesDir = fileURLToPath(new URL("./entries/", import.meta.url));

/** A bundle for a platform without Node built-ins, or why esbuild could not make it. */
export type BundleResult =
  | { readonly ok: true; readonly file: string }
  | { readonly ok: false; readonly error: string };

export interface Scratch {
  readonly dir: string;
  /** Entries for Node, Bun and Deno processes, importing the installed packages. */
  readonly processEntry: (name: "process-key-json" | "process-key-file") => string;
  readonly workerdBundle: BundleResult;
  readonly browserBundle: BundleResult;
  /**
   * The in-process case's bundles (the sandbox's Web entry, auth and client, whole): one for Node,
   * Bun and Deno (no `node` condition, so the sandbox resolves to its Web entry), one Worker module,
   * one Web Worker script.
   */
  readonly inProcess: {
    readonly process: BundleResult;
    readonly workerd: BundleResult;
    readonly browser: BundleResult;
  };
  /** The script Node 24 runs to drive Miniflare. */
  readonly miniflareHost: string;
  close(): Promise<void>;
}

/** Bounds every step, so that a stuck registry or packer fails the run instead of hanging it. */
const STEP_TIMEOUT_MS = 90_000;

/** Runs one command of the preparation with this process's environment; throws with its errors. */
async function run(command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const result = await runProcess({
    command,
    args,
    cwd: options.cwd,
    env: options.env ?? process.env,
    timeoutMs: STEP_TIMEOUT_MS,
  });
  if (result.exitCode !== 0) {
    const how = result.timedOut
      ? `did not finish within ${STEP_TIMEOUT_MS / 1000} s`
      : `exited with ${result.exitCode}`;
    throw new Error(`${command} ${args.join(" ")} ${how}\n${result.stderr}`);
  }
}

/** Packs the three packages and installs the tarballs into the scratch project, as a user would. */
async function installPackedPackages(dir: string): Promise<void> {
  const tarballs = join(dir, "tarballs");
  await mkdir(tarballs);
  for (const name of ["client", "auth", "sandbox"]) {
    await run("pnpm", ["pack", "--pack-destination", tarballs], { cwd: join(packagesDir, name) });
  }
  const files = (await readdir(tarballs)).sort();
  const tarball = (prefix: string) => {
    const file = files.find((f) => f.startsWith(prefix));
    if (file === undefined) throw new Error(`pnpm pack made no ${prefix}*.tgz (found: ${files.join(", ")})`);
    return `file:tarballs/${file}`;
  };
  const manifest = {
    name: "drill-runtime-matrix-scratch",
    private: true,
    type: "module",
    dependencies: {
      "@drill-practice/client": tarball("drill-practice-client-"),
      "@drill-practice/auth": tarball("drill-practice-auth-"),
      "@drill-practice/sandbox": tarball("drill-practice-sandbox-"),
    },
  };
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  await run("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--prefer-offline"], {
    cwd: dir,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

/** The entries, with the packages left as imports that resolve to the installed copy, and the Miniflare host. */
async function buildEntries(dir: string, appDir: string): Promise<void> {
  await build({
    entryPoints: [
      "process-key-json",
      "process-key-file",
      "workerd",
      "web-worker",
      "in-process-process",
      "in-process-workerd",
      "in-process-web-worker",
    ].map((name) => join(entriesDir, `${name}.ts`)),
    outdir: appDir,
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  await build({
    entryPoints: [fileURLToPath(new URL("./miniflare-host.ts", import.meta.url))],
    outfile: join(dir, "miniflare-host.mjs"),
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node22",
    logLevel: "silent",
  });
}

/** The in-process sandbox entries bundled for a process, workerd and a browser. */
async function inProcessBundles(dir: string, appDir: string): Promise<Scratch["inProcess"]> {
  return {
    process: await bundle(
      join(appDir, "in-process-process.js"),
      join(dir, "bundles", "in-process.mjs"),
      "esm",
      [],
      "neutral",
    ),
    workerd: await bundle(
      join(appDir, "in-process-workerd.js"),
      join(dir, "bundles", "in-process-worker.mjs"),
      "esm",
      ["workerd", "worker", "browser"],
    ),
    browser: await bundle(
      join(appDir, "in-process-web-worker.js"),
      join(dir, "bundles", "in-process-web-worker.js"),
      "iife",
      ["browser"],
    ),
  };
}

/**
 * Packs, installs and builds; throws with the failing command's output when packing or
 * installing fails (every case needs them), and records bundling failures per platform.
 */
export async function prepareScratch(): Promise<Scratch> {
  const dir = await makeScratchDir("drill-runtime-matrix-");
  try {
    await installPackedPackages(dir);
    const appDir = join(dir, "app");
    await buildEntries(dir, appDir);
    const workerdBundle = await bundle(
      join(appDir, "workerd.js"),
      join(dir, "bundles", "worker.mjs"),
      "esm",
      ["workerd", "worker", "browser"],
    );
    const browserBundle = await bundle(
      join(appDir, "web-worker.js"),
      join(dir, "bundles", "web-worker.js"),
      "iife",
      ["browser"],
    );
    return {
      dir,
      processEntry: (name) => join(appDir, `${name}.js`),
      workerdBundle,
      browserBundle,
      inProcess: await inProcessBundles(dir, appDir),
      miniflareHost: join(dir, "miniflare-host.mjs"),
      close: () => removeScratchDir(dir),
    };
  } catch (error) {
    await removeScratchDir(dir);
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`could not prepare the scratch project: ${message}`);
  }
}

/**
 * Bundles an installed entry for a platform that has no Node built-ins, as a Worker or browser build
 * would ("neutral": any runtime, without the `node` or `browser` condition).
 */
async function bundle(
  entry: string,
  outfile: string,
  format: "esm" | "iife",
  conditions: string[],
  platform: "browser" | "neutral" = "browser",
): Promise<BundleResult> {
  try {
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format,
      platform,
      conditions,
      // A neutral build reads no package.json field by default; CommonJS dependencies need "main".
      ...(platform === "neutral" ? { mainFields: ["module", "main"] } : {}),
      target: "es2022",
      logLevel: "silent",
    });
    return { ok: true, file: outfile };
  } catch (error) {
    const failure = error as { errors?: { text: string; location?: { file: string } | null }[] };
    // Paths from the installed package on, as a user would see them in their own project.
    const where = (file: string | undefined) => (file ?? "?").replace(/^.*?(?=node_modules\/)/, "");
    const messages = (failure.errors ?? []).map((e) => `${where(e.location?.file)}: ${e.text}`);
    return { ok: false, error: messages.length > 0 ? messages.join("; ") : String(error) };
  }
}
