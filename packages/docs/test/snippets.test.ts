/**
 * Every TypeScript block a reader is shown (the READMEs, the site's hand-written pages, the samples
 * of every reference) compiled against the packed packages, installed the way the root README's
 * "Before the packages are published" section says (its own commands are run), and the blocks that
 * call the API run against a sandbox with its built-in dataset.
 *
 * How the blocks run: as Node modules in the scratch project, with the sandbox's `client.env`
 * settings in the environment and its key file as `./service-account.json`. Blocks written against
 * the placeholder address `https://drill.example` reach the sandbox through a `fetch` that routes
 * that origin there; where such a block leaves out `auth` to stay short, that `fetch` adds a token
 * of the sandbox's service account, standing in for the auth the block does not show. A block must
 * exit 0, write nothing to standard error and print no `undefined` (a wrong ID prints one).
 * A block needing Redis runs against a real redis-server (skipped locally without one; under
 * CI=true missing Redis fails); a block marked "type-check only" (a Worker module, placeholders)
 * and the samples of operations the sandbox does not simulate (it answers 501) are compiled only.
 */
import { readFileSync } from "node:fs";
import { copyFile, mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { type Sandbox, SIMULATED_OPERATIONS, startSandbox } from "@drill-practice/sandbox";
import { compileExamples } from "@drill-practice/tooling/examples";
import { type ProcessResult, runProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RedisServer, redisAvailable, startRedisServer } from "../../auth/test/redis-server.ts";
import { packageDir } from "../src/build-site.ts";
import { htmlCodeBlocks, markdownShellBlocks } from "../src/shell-commands.ts";
import { readClientEnv } from "./helpers/client-env.ts";
import {
  assertSiteBuilt,
  type BuiltSamples,
  builtSamples,
  distDir,
  inRunOrder,
  refusedForItsRecords,
} from "./helpers/site.ts";
import { htmlCodeLanguages, readerSnippets, readmeFiles, type Snippet } from "./helpers/snippets.ts";

const repoDir = join(packageDir, "..", "..");
// The guides as readers get them: the built pages, in the site's shared layout.
assertSiteBuilt();
const guidePages = ["index.html", "authentication.html", "errors.html", "versioning.html"];
const snippets = readerSnippets(repoDir, distDir, guidePages);
const runnable = snippets.filter((snippet) => snippet.typeCheckOnly === undefined);
const needsRedis = (snippet: Snippet) => snippet.code.includes("@drill-practice/auth/redis");
const hasRedis = runnable.some(needsRedis) ? redisAvailable() : false;
const simulated = new Set(Object.keys(SIMULATED_OPERATIONS));
const placeholderOrigin = "https://drill.example";

/** Runs a shell command line; rejects with its output when it fails. */
async function shell(line: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const result = await runProcess({
    command: "bash",
    args: ["-eo", "pipefail", "-c", line],
    cwd,
    env,
    timeoutMs: 180_000,
  });
  if (result.exitCode !== 0) {
    const why = result.timedOut ? "timed out after 180 s" : `exit ${result.exitCode}`;
    throw new Error(`${line}\n→ ${why}\n${result.stdout}${result.stderr}`);
  }
  return result.stdout;
}

/** The shell block under a README heading. */
function sectionBlock(markdown: string, heading: string): string {
  const at = markdown.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`no heading "${heading}"`);
  const block = markdownShellBlocks(markdown.slice(at))[0];
  if (block === undefined) throw new Error(`no shell block under "${heading}"`);
  return block;
}

/** Routes the placeholder origin to the sandbox; adds the stand-in token where a block sends none. */
const preload = `
const sandbox = process.env.SNIPPET_SANDBOX_URL;
const token = process.env.SNIPPET_TOKEN;
const platformFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.origin !== ${JSON.stringify(placeholderOrigin)}) return platformFetch(request);
  const headers = new Headers(request.headers);
  const open = url.pathname.startsWith("/daas/") || url.pathname.startsWith("/.well-known/");
  if (!open && !headers.has("authorization")) headers.set("authorization", "Bearer " + token);
  const body = ["GET", "HEAD"].includes(request.method) ? undefined : await request.arrayBuffer();
  return platformFetch(new URL(url.pathname + url.search, sandbox), {
    method: request.method, headers, body, signal: request.signal, redirect: request.redirect,
  });
};
`;

describe("TypeScript shown to readers", () => {
  const project = scratchDirForAll("drill-docs-snippets-");
  let samples: BuiltSamples[];
  let sandbox: Sandbox;
  let redis: RedisServer | undefined;
  let env: NodeJS.ProcessEnv;
  let runs = 0;

  beforeAll(async () => {
    samples = await builtSamples();
    const home = join(project(), "home");
    await mkdir(home);
    await writeFile(join(project(), "package.json"), '{ "private": true, "type": "module" }\n');

    // The root README's commands, as a reader runs them (the build is already done).
    const steps = sectionBlock(
      await readFile(join(repoDir, "README.md"), "utf8"),
      "### Before the packages are published",
    )
      .replace(/\\\n\s*/g, " ")
      .split("\n")
      .filter((line) => line.trim() !== "" && !line.startsWith("#"));
    expect(steps[0]).toBe("pnpm install && pnpm build");
    expect(steps).toHaveLength(3);
    const commandEnv = {
      ...process.env,
      HOME: home,
      // The registry is asked only for what npm's cache lacks.
      npm_config_cache: process.env.npm_config_cache || join(homedir(), ".npm"),
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
    await shell(steps[1] as string, repoDir, commandEnv);
    await shell(steps[2] as string, project(), commandEnv);
    // Optional peers (redis of auth, msw of the sandbox): the workspace's copies stand in for `npm install`.
    for (const [owner, peer] of [
      ["auth", "redis"],
      ["sandbox", "msw"],
    ] as const) {
      const require = createRequire(join(repoDir, "packages", owner, "package.json"));
      await symlink(
        await realpath(dirname(require.resolve(`${peer}/package.json`))),
        join(project(), "node_modules", peer),
      );
    }

    sandbox = await startSandbox({ credentialsDir: join(project(), "creds") });
    const settings = await readClientEnv(join(project(), "creds"));
    const keyText = await readFile(settings.DRILL_KEY_FILE as string, "utf8");
    await copyFile(settings.DRILL_KEY_FILE as string, join(project(), "service-account.json"));
    // The sandbox README's responses file, which its "same from code" block reads.
    const sandboxReadme = await readFile(join(repoDir, "packages", "sandbox", "README.md"), "utf8");
    const responses = /```json\n(\{\n {2}"responses"[\s\S]*?)```/.exec(sandboxReadme)?.[1];
    expect(responses).toBeDefined();
    await writeFile(join(project(), "responses.json"), responses as string);
    await writeFile(join(project(), "preload.mjs"), preload);
    const token = await createTokenProvider({
      baseUrl: sandbox.url,
      clientId: settings.DRILL_CLIENT_ID as string,
      clientSecret: settings.DRILL_CLIENT_SECRET as string,
      key: await parseServiceAccountKey(keyText),
    }).getToken();
    if (hasRedis) redis = await startRedisServer();
    env = {
      PATH: process.env.PATH,
      ...settings,
      DRILL_KEY_JSON: keyText,
      ...(redis ? { REDIS_URL: redis.url } : {}),
      SNIPPET_SANDBOX_URL: sandbox.url,
      SNIPPET_TOKEN: token.value,
    };
  }, 300_000);

  afterAll(async () => {
    await sandbox?.close();
    await redis?.close();
  });

  /** Runs one block as a module of the scratch project. Asynchronous: the sandbox lives in this process. */
  async function run(code: string, extra: Record<string, string> = {}): Promise<ProcessResult> {
    const file = join(project(), `run-${String(runs++).padStart(3, "0")}.mjs`);
    const output = ts.transpileModule(code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    await writeFile(file, output.outputText);
    return runProcess({
      command: process.execPath,
      args: ["--import", "./preload.mjs", file],
      cwd: project(),
      env: { ...env, ...extra },
      timeoutMs: 30_000,
    });
  }

  it("are found in every README and guide page: at least the quick starts and each package's examples", () => {
    const origins = new Set(snippets.map((snippet) => snippet.origin.replace(/:\d+$/, "")));
    for (const file of [
      "README.md",
      "packages/client/README.md",
      "packages/auth/README.md",
      "packages/sandbox/README.md",
      "packages/docs/dist/index.html",
      "packages/docs/dist/authentication.html",
    ]) {
      expect(origins.has(file), file).toBe(true);
    }
    // A code block without a language on a guide page would escape this test.
    for (const page of guidePages) {
      const html = readFileSyncText(join(distDir, page));
      expect(
        htmlCodeLanguages(html).filter((language) => language === undefined),
        page,
      ).toEqual([]);
    }
    // …and so would TypeScript in a README fence not marked ts.
    for (const file of readmeFiles(repoDir)) {
      const markdown = readFileSyncText(join(repoDir, file));
      for (const block of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)) {
        if (/^import .* from "@drill-practice\//m.test(block[2] ?? ""))
          expect(["ts", "typescript"], `${file}: a ${block[1] || "plain"} block imports the SDK`).toContain(
            block[1],
          );
      }
    }
  });

  // A Node project's settings: `node` conditions pick the packages' Node entries (the sandbox's Web
  // entry has no startSandbox).
  const nodeProject = {
    module: "nodenext",
    moduleResolution: "nodenext",
    types: ["node"],
    typeRoots: [join(packageDir, "node_modules", "@types")],
  };

  it("type-check against the packed packages, with the references' samples", async () => {
    const examples = [
      ...snippets,
      ...samples.map((sample) => ({
        origin: `${sample.version.dir}/index.html#${sample.operationId}:1`,
        code: sample.typescript,
      })),
    ];
    const errors = await compileExamples({
      scratch: join(project(), "typecheck"),
      examples,
      compilerOptions: nodeProject,
    });
    expect(errors).toBe("");
    // The same compiler must reject the landing page's old import (the export lives in /pagination).
    const wrong = await compileExamples({
      scratch: join(project(), "typecheck-wrong"),
      examples: [{ origin: "wrong:1", code: 'import { paginateStore } from "@drill-practice/client";\n' }],
      compilerOptions: nodeProject,
    });
    expect(wrong).toContain("TS2305");
  }, 300_000);

  it.for(runnable.map((snippet) => ({ ...snippet, redis: needsRedis(snippet) })))(
    "$origin runs against the sandbox",
    { timeout: 60_000 },
    async (snippet, context) => {
      if (snippet.redis && !hasRedis) context.skip("needs redis-server");
      const result = await run(snippet.code);
      expect(result.stderr, `${snippet.origin}\n${snippet.code}`).toBe("");
      expect(result.exitCode).toBe(0);
      expect(result.stdout, `${snippet.origin} printed undefined`).not.toMatch(/\bundefined\b/);
    },
  );

  it.each(snippets.filter((snippet) => snippet.typeCheckOnly !== undefined))(
    "$origin is type-checked only: $typeCheckOnly",
    (snippet) => {
      // Said where the block is, so a reader knows it was not run either.
      expect(snippet.typeCheckOnly?.length ?? 0).toBeGreaterThan(10);
    },
  );

  it("the TypeScript sample of every operation the sandbox simulates runs against it", async () => {
    // A sample whose form fields the interface does not show sends none, which the sandbox refuses.
    const unknownBody = (sample: BuiltSamples) =>
      sample.typescript.includes("are not shown by the interface");
    const simulatedSamples = samples.filter((sample) => simulated.has(sample.operationId));
    expect(simulatedSamples.map((sample) => sample.operationId).sort()).toEqual([...simulated].sort());
    const chosen = inRunOrder(simulatedSamples);
    let refused = 0;
    let placeholders = 0;
    const failures: string[] = [];
    for (const sample of chosen) {
      const extra: Record<string, string> = {};
      if (sample.typescript.includes("env.REFERENCE")) {
        const question = chosen.find(
          (s) => s.operationId === sample.operationId.replace("submitAnswer", "getQuestion"),
        );
        const asked = question ? await run(question.typescript) : undefined;
        extra.REFERENCE = /reference: '([^']+)'/.exec(asked?.stdout ?? "")?.[1] ?? "";
        // A test's question exists only once a test is defined: its answer sample has no reference.
        if (extra.REFERENCE === "" && !sample.operationId.startsWith("submitAnswer")) {
          placeholders++;
          continue;
        }
        expect(extra.REFERENCE, `${sample.operationId}: no reference from the question sample`).not.toBe("");
      }
      const result = await run(sample.typescript, extra);
      // Samples of stateful operations name records by placeholder; a fresh sandbox answers them with
      // the operation's own refusal, which shows the request reached it well formed.
      const id = /\(ID "(\w+)"\)/.exec(result.stderr)?.[1];
      if (result.exitCode !== 0 && refusedForItsRecords(id)) {
        placeholders++;
        continue;
      }
      // Sending no fields is all such a sample can do; the sandbox may refuse that, naming the field.
      if (
        unknownBody(sample) &&
        /failed with HTTP 400 \(ID "\w+_invalid"\): \w+: required form field/.test(result.stderr)
      ) {
        refused++;
        continue;
      }
      if (result.exitCode !== 0 || result.stderr !== "")
        failures.push(`${sample.operationId} → exit ${result.exitCode}: ${result.stderr}`);
    }
    expect(failures).toEqual([]);
    expect(refused).toBeLessThan(chosen.length / 4);
    expect(placeholders).toBeLessThan(chosen.length / 2);
    console.info(
      `${chosen.length - refused - placeholders} reference samples ran against the sandbox; ${placeholders} named ` +
        "placeholder records and were refused by their operation for it; " +
        `${refused} sent no form fields ` +
        `(the interface does not show them) and were refused for it; the other ${samples.length - chosen.length} ` +
        "were type-checked only (the sandbox answers 501 for their operations)",
    );
  }, 300_000);
});

describe("shell blocks", () => {
  const server = /\b(drill-sandbox|redis-server|docs:serve|pnpm start)\b/;
  it("mark every server that keeps the terminal (no `&`) as running in the foreground, on its line or the comment above", () => {
    const blocks: { source: string; text: string }[] = [];
    for (const file of readmeFiles(repoDir)) {
      for (const text of markdownShellBlocks(readFileSyncText(join(repoDir, file))))
        blocks.push({ source: file, text });
    }
    for (const page of guidePages) {
      for (const text of htmlCodeBlocks(readFileSyncText(join(distDir, page))))
        blocks.push({ source: page, text });
    }
    const unmarked: string[] = [];
    let servers = 0;
    for (const { source, text } of blocks) {
      const lines = text.replace(/\\\n\s*/g, " ").split("\n");
      for (const [index, line] of lines.entries()) {
        const command = line.replace(/\s#.*$/, "").trim();
        if (command.startsWith("#") || !server.test(command) || /--help|--version/.test(command)) continue;
        servers++;
        if (command.endsWith("&")) continue;
        const above = lines[index - 1]?.trim() ?? "";
        if (!/#.*\bforeground\b/.test(line) && !(above.startsWith("#") && /\bforeground\b/.test(above)))
          unmarked.push(`${source}: ${line.trim()}`);
      }
    }
    expect(servers).toBeGreaterThanOrEqual(4);
    expect(unmarked).toEqual([]);
  });
});

function readFileSyncText(path: string): string {
  return readFileSync(path, "utf8");
}
