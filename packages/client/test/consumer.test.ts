/**
 * Installs the packed package into a project outside the workspace and
 * type-checks and runs a consumer against it, under `moduleResolution:
 * bundler` and `nodenext`. Needs `pnpm build` first (the turbo test task
 * depends on build).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import { beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const tscBin = join(dirname(require.resolve("typescript/package.json")), "bin", "tsc");

/** Runs tsc on one of the consumer project's configs and expects it to pass without a word. */
async function expectTypeChecks(project: string, config: string): Promise<void> {
  const result = await run(process.execPath, [tscBin, "-p", config], { cwd: project }).then(
    () => ({ ok: true, output: "" }),
    (error: { stdout?: string; stderr?: string }) => ({
      ok: false,
      output: `${error.stdout}${error.stderr}`,
    }),
  );
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
}

// npm must not pick up pnpm's settings from the environment of `pnpm test`.
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_|^pnpm_/i.test(key)),
) as NodeJS.ProcessEnv;

const CONSUMER = `
import {
  createDrillClient,
  DrillApiError,
  unwrap,
  VERSION,
  type AccessTokenResponse,
  type Drillable,
  type Drillables,
  type DrillClientAuth,
  type PathsV2_0,
  type PathsV2_1,
  type QuestionResponse,
  type Term,
  type TokenRequest,
} from "@drill-practice/client";
import { paginateStore } from "@drill-practice/client/pagination";

export async function main(fetchImpl: (request: Request) => Promise<Response>): Promise<string[]> {
  const log: string[] = [];
  const auth: DrillClientAuth = {
    middleware: ({ baseUrl }) => ({
      onRequest({ request }) {
        request.headers.set("x-base", baseUrl);
        return request;
      },
    }),
  };
  const client = createDrillClient({ baseUrl: "https://drill.example", fetch: fetchImpl, retry: false, auth });

  // API 2.0: store search and a question for several drills.
  const store = await client.GET("/api/2/store", {
    params: { query: { query: "spanish", searchField: ["NAME", "TAGS"], resultStart: "0", resultSize: "2" } },
  });
  const page: Drillables | undefined = store.data;
  const first: Drillable | undefined = page?.drills[0];
  log.push(\`store:\${page?.total}:\${first?.name}\`);

  const question: QuestionResponse = await unwrap(
    client.GET("/api/2/question", { params: { query: { drill: ["a", "b"] } } }),
  );
  const terms: Term[] = question.question?.tell?.terms ?? [];
  log.push(\`question:\${terms.map((term) => term.value).join(",")}\`);

  // API 2.1 through a client restricted to 2.1.
  const v21 = createDrillClient<PathsV2_1>({ baseUrl: "https://drill.example", fetch: fetchImpl, retry: false });
  const version = await v21.GET("/api/2.1/version");
  log.push(\`v21:\${version.response.status}\`);
  await v21.GET("/api/2.1/question/{drill}", { params: { path: { drill: "a/b" } } });

  const v20 = createDrillClient({ baseUrl: "https://drill.example", fetch: fetchImpl, version: "2.0", throwOnError: true });
  const paths: PathsV2_0 | undefined = undefined;
  void paths;
  try {
    await v20.GET("/api/2/store", { params: { query: {} } });
  } catch (error) {
    if (error instanceof DrillApiError) log.push(\`error:\${error.status}:\${error.errorId}\`);
  }

  let count = 0;
  for await (const drill of paginateStore(client, { query: "spanish" }, { pageSize: 2 })) {
    const entry: Drillable = drill;
    if (entry.id) count++;
  }
  log.push(\`paginated:\${count}\`);

  const form: TokenRequest = {
    grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
    client_id: "client",
    client_secret: "secret",
    assertion: "a.b.c",
  };
  const token: AccessTokenResponse | undefined = (
    await client.POST("/daas/oauth/token", {
      body: form,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    })
  ).data;
  log.push(\`token:\${token?.token_type}\`);
  log.push(\`version:\${VERSION}\`);
  return log;
}

export async function typeErrors(): Promise<void> {
  const client = createDrillClient({ baseUrl: "https://drill.example" });
  const v21 = createDrillClient({ baseUrl: "https://drill.example", version: "2.1" });
  // @ts-expect-error wrong path
  await client.GET("/api/2/does-not-exist");
  // @ts-expect-error a 2.0 path on a 2.1 client
  await v21.GET("/api/2/store", { params: { query: { query: "x" } } });
  // @ts-expect-error wrong parameter type (resultSize takes a number or a string of digits)
  await client.GET("/api/2/store", { params: { query: { resultSize: true } } });
  // @ts-expect-error missing required path parameter
  await client.GET("/api/2/question/{drill_id}", { params: { path: {} } });
  // @ts-expect-error missing params altogether
  await client.GET("/api/2.1/question/{drill}");
}
`;

/** A project that uses API 2.0 only, through its own entry. */
const ONE_VERSION_CONSUMER = `
import { createDrillClient, DrillApiError, DrillInvalidOptionError, type Drillable, type paths } from "@drill-practice/client/v2.0";
import { paginateStore } from "@drill-practice/client/pagination";

type StoreQuery = NonNullable<paths["/api/2/store"]["get"]["parameters"]["query"]>;

export async function oneVersion(fetchImpl: (request: Request) => Promise<Response>): Promise<string[]> {
  const log: string[] = [];
  const client = createDrillClient({ baseUrl: "https://drill.example", fetch: fetchImpl, retry: false });
  const query: StoreQuery = { query: "spanish", resultSize: "2" };
  const store = await client.GET("/api/2/store", { params: { query } });
  const first: Drillable | undefined = store.data?.drills[0];
  log.push(\`store:\${store.data?.total}:\${first?.name}\`);
  const throwing = createDrillClient({ baseUrl: "https://drill.example", fetch: fetchImpl, retry: false, throwOnError: true });
  try {
    await throwing.GET("/api/2/store", { params: { query: {} } });
  } catch (error) {
    if (error instanceof DrillApiError) log.push(\`error:\${error.status}:\${error.errorId}\`);
  }
  let count = 0;
  for await (const drill of paginateStore(client, { query: "spanish" }, { pageSize: 2 })) count += drill.id ? 1 : 0;
  log.push(\`paginated:\${count}\`);
  try {
    // @ts-expect-error this entry is for 2.0
    createDrillClient({ baseUrl: "https://drill.example", version: "2.1" });
  } catch (error) {
    if (error instanceof DrillInvalidOptionError) log.push(\`option:\${error.option}\`);
  }
  return log;
}

export async function typeErrors(): Promise<void> {
  const client = createDrillClient({ baseUrl: "https://drill.example" });
  // @ts-expect-error a 2.1 path on the 2.0 entry
  await client.GET("/api/2.1/version");
  // @ts-expect-error wrong parameter type (resultSize takes a number or a string of digits)
  await client.GET("/api/2/store", { params: { query: { resultSize: true } } });
  await client.POST("/daas/oauth/token", {
    body: { grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", client_id: "c", client_secret: "s", assertion: "a.b.c" },
  });
  await client.GET("/.well-known/oauth-authorization-server");
}
`;

/**
 * What the record says, as a consumer's editor and compiler see it: the values an answer's page lists
 * are offered and any other string still fits; requests take only the fields and values their pages
 * name; fields the service defaults may be left out.
 */
const RECORD_CONSUMER = `
import * as v21 from "@drill-practice/client/v2.1";
import * as v20 from "@drill-practice/client/v2.0";

/** true only when A and B are the same type (not merely assignable both ways, as string and "X" | (string & Record<never, never>) are). */
type Equal<A, B> = (<G>() => G extends A ? 1 : 2) extends (<G>() => G extends B ? 1 : 2) ? true : false;
/** The known values of an answer's field, and room for any other string: what an editor offers. */
type Open<V extends string> = V | (string & Record<never, never>);
/** An optional field's type without its undefined. */
type Present<T> = Exclude<T, undefined>;
type Staff21 = Present<v21.GroupStaff_v2_1["groupStaffUsers"]>[number];
type Staff20 = Present<v20.GroupStaff_v2_0["groupStaffUsers"]>[number];

export const offered: true[] = [
  true satisfies Equal<Present<v21.Beacon_v2_1["proximity"]>, Open<"FAR" | "NEAR" | "IMMEDIATE">>,
  true satisfies Equal<Present<v21.Playable_v2_1["type"]>, Open<"DRILL" | "COURSE" | "TEST">>,
  true satisfies Equal<Present<v21.Objective_v2_1["type"]>, Open<"ONEOFF" | "PERMANENT" | "TEST">>,
  true satisfies Equal<Present<v21.Preferences_v2_1["direction"]>, Open<"BIDIRECTIONAL" | "PRODUCTIVE" | "RECEPTIVE">>,
  true satisfies Equal<Present<v21.Preferences_v2_1["style"]>, Open<"MULTIPLE_CHOICE" | "OPEN_ENDED">>,
  true satisfies Equal<Present<Staff21["permission"]>, Open<"MANAGE" | "VIEW">>,
  true satisfies Equal<Present<v20.ClientApp_v2_0["status"]>, Open<"OFFICIAL" | "EXPERIMENTAL">>,
  true satisfies Equal<Present<v20.Objective_v2_0["type"]>, Open<"PERMANENT" | "ONEOFF" | "TEST">>,
  true satisfies Equal<Present<v20.DrillDetails_v2_0["type"]>, Open<"DRILL" | "COURSE">>,
  true satisfies Equal<v20.Drillable["type"], Open<"DRILL" | "COURSE">>,
  true satisfies Equal<Present<Staff20["permission"]>, Open<"MANAGE" | "VIEW">>,
  true satisfies Equal<Present<v20.TestQuestion_v2_0["timing"]>, Open<"TOO_LATE" | "ON_TIME">>,
  true satisfies Equal<v20.Evaluation["result"], Open<"CORRECT" | "INCORRECT">>,
  true satisfies Equal<Present<v20.Evaluation["timing"]>, Open<"ON_TIME" | "TOO_LATE">>,
  true satisfies Equal<v20.TermEvaluation["result"], Open<"CORRECT" | "INCORRECT" | "MISSED">>,
];
// A plain string field names no values: the check above can fail.
export const plain: false = false satisfies Equal<v20.Drillable["name"], Open<"DRILL" | "COURSE">>;

export async function answers(): Promise<string[]> {
  const client = v21.createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
  const beacon = await client.GET("/api/2.1/beacon/{beacon}", { params: { path: { beacon: "b" } } });
  const offeredByTheCall: true = true satisfies Equal<
    Present<typeof beacon.proximity>,
    Open<"FAR" | "NEAR" | "IMMEDIATE">
  >;
  // A value the page does not list still fits an answer, and an answer's value is a string.
  const later: Present<v21.Beacon_v2_1["proximity"]> = "VERY_FAR";
  const kind: v20.Objective_v2_0["type"] = "RECURRING";
  const text: string | undefined = beacon.proximity;
  const raw = await v21.createDrillClient({ baseUrl: "https://drill.example" }).GET("/api/2.1/beacon/{beacon}", {
    params: { path: { beacon: "b" } },
  });
  const rawText: string | undefined = raw.data?.proximity;
  return [String(offeredByTheCall), later, kind ?? "", text ?? "", rawText ?? ""];
}

export async function requests(): Promise<void> {
  const c21 = v21.createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
  const c20 = v20.createDrillClient({ baseUrl: "https://drill.example", throwOnError: true });
  await c21.POST("/api/2.1/groups", { body: { name: "n", description: "d", catalogRestrictionMode: "GRANT" } });
  // @ts-expect-error a value outside those the page accepts
  await c21.POST("/api/2.1/groups", { body: { name: "n", description: "d", catalogRestrictionMode: "MAYBE" } });
  // @ts-expect-error a misspelt field
  await c21.POST("/api/2.1/groups", { body: { name: "n", description: "d", catalogRestrictonMode: "GRANT" } });
  const beacon: v21.StoreBeaconForm_v2_1 = {
    playableType: "DRILL",
    playableId: "p",
    // @ts-expect-error a request takes only the values its page lists
    proximity: "VERY_FAR",
    lingerDuration: "PT5M",
  };
  void beacon;
  // direction and disclosure have defaults the service fills in.
  await c20.POST("/api/2/tests", { body: { drill: ["d1", "d2"] } });
  await c20.POST("/api/2/drills", { body: { name: "n", subject: "s", description: "d", tags: ["verbs", "b1"] } });
  // A field the pages do not name goes out through a type of the caller's own.
  const extra: v20.CreateDrillForm_v2_0 & { featured: string } = { name: "n", subject: "s", description: "d", featured: "y" };
  await c20.POST("/api/2/drills", { body: extra as v20.CreateDrillForm_v2_0 });
  // @ts-expect-error passed as it is, the added field is refused like a misspelt one
  await c20.POST("/api/2/drills", { body: extra });
}
`;

const RUNNER = `
import { main } from "./consumer.js";

const fetchImpl = async (request) => {
  const url = new URL(request.url);
  const reply = (body, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
  if (url.pathname === "/api/2/store" && !url.searchParams.has("query")) return reply({ ID: "query_missing" }, 400);
  if (url.pathname === "/api/2/store") {
    const all = ["a", "b", "c"].map((id) => ({ id, name: "Drill " + id, subject: "s", type: "DRILL", description: "d" }));
    const start = Number(url.searchParams.get("resultStart"));
    const size = Number(url.searchParams.get("resultSize"));
    return reply({ total: all.length, drills: all.slice(start, start + size) });
  }
  if (url.pathname === "/api/2/question") {
    return reply({ question: { tell: { terms: url.searchParams.getAll("drill").map((value) => ({ value })) } }, notifications: [] });
  }
  if (url.pathname === "/daas/oauth/token") {
    const form = new URLSearchParams(await request.text());
    return reply({ access_token: "t", token_type: form.get("grant_type") ? "bearer" : "none", expires_in: 3599, scope: "ROLE_USER", jti: "j" });
  }
  if (url.pathname === "/api/2.1/question/a%2Fb") return reply({});
  return reply({ version: "2.1" });
};

const entry = process.argv[2];
if (entry === "one-version") {
  const { oneVersion } = await import("./one-version.js");
  console.log(JSON.stringify(await oneVersion(fetchImpl)));
} else {
  console.log(JSON.stringify(await main(fetchImpl)));
}
`;

function tsconfig(resolution: "bundler" | "nodenext", files: readonly string[] = ["consumer.ts"]): string {
  const module = resolution === "bundler" ? "esnext" : "nodenext";
  return JSON.stringify(
    {
      compilerOptions: {
        target: "es2022",
        module,
        moduleResolution: resolution,
        lib: ["es2023", "dom", "dom.iterable"],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
        skipLibCheck: false,
        outDir: `out-${resolution}`,
      },
      files,
    },
    null,
    2,
  );
}

async function npmInstall(project: string, tarball: string): Promise<string> {
  const base = ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", tarball];
  try {
    await run("npm", [...base, "--offline"], { cwd: project, env: cleanEnv });
    return "offline";
  } catch {
    // The npm cache lacks a dependency: let npm fill it from the registry once.
    await run("npm", [...base, "--prefer-offline"], { cwd: project, env: cleanEnv });
    return "prefer-offline";
  }
}

describe("consumer of the packed package", () => {
  const scratch = scratchDirForAll("drill-client-consumer-");
  let project: string;

  beforeAll(async () => {
    if (
      !existsSync(join(packageDir, "dist", "index.js")) ||
      !existsSync(join(packageDir, "dist", "generated", "openapi.d.ts"))
    ) {
      throw new Error("packages/client/dist is missing or incomplete: run pnpm build before this test");
    }
    project = join(scratch(), "project");
    await mkdir(project);
    await run("pnpm", ["pack", "--pack-destination", scratch()], { cwd: packageDir });
    const tarball = (await readdir(scratch())).find((name) => name.endsWith(".tgz"));
    if (!tarball) throw new Error("pnpm pack produced no tarball");
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "drill-client-consumer", private: true, type: "module" }, null, 2),
    );
    const mode = await npmInstall(project, join(scratch(), tarball));
    console.info(`consumer test: npm install --${mode}`);
    await writeFile(join(project, "consumer.ts"), CONSUMER);
    await writeFile(join(project, "one-version.ts"), ONE_VERSION_CONSUMER);
    await writeFile(join(project, "record.ts"), RECORD_CONSUMER);
    for (const resolution of ["bundler", "nodenext"] as const) {
      await writeFile(join(project, `tsconfig.${resolution}.json`), tsconfig(resolution));
      await writeFile(
        join(project, `tsconfig.one-version.${resolution}.json`),
        tsconfig(resolution, ["one-version.ts"]),
      );
      await writeFile(
        join(project, `tsconfig.record.${resolution}.json`),
        tsconfig(resolution, ["record.ts"]),
      );
    }
  }, 240_000);

  it("installs outside the workspace with openapi-fetch as its only dependency", async () => {
    const installed = JSON.parse(
      await import("node:fs/promises").then((fs) =>
        fs.readFile(join(project, "node_modules", "@drill-practice", "client", "package.json"), "utf8"),
      ),
    ) as { dependencies: Record<string, string>; exports: unknown };
    expect(Object.keys(installed.dependencies)).toEqual(["openapi-fetch"]);
    expect(installed.dependencies["openapi-fetch"]).toBe("0.17.0");
    expect(existsSync(join(project, "node_modules", "openapi-fetch"))).toBe(true);
    expect(project.startsWith(packageDir)).toBe(false);
  });

  it.each(["bundler", "nodenext"] as const)(
    "type-checks under moduleResolution %s, including the expected errors",
    async (resolution) => {
      await expectTypeChecks(project, `tsconfig.${resolution}.json`);
    },
    300_000,
  );

  it.each(["bundler", "nodenext"] as const)(
    "under moduleResolution %s, offers the known values of 15 answer fields, keeps answers open and requests closed",
    async (resolution) => {
      await expectTypeChecks(project, `tsconfig.record.${resolution}.json`);
      expect(RECORD_CONSUMER.match(/true satisfies Equal</g)?.length).toBeGreaterThanOrEqual(12);
    },
    300_000,
  );

  it.each(["bundler", "nodenext"] as const)(
    "type-checks a one-version consumer under moduleResolution %s without loading the all-versions types",
    async (resolution) => {
      const args = ["-p", `tsconfig.one-version.${resolution}.json`];
      await expectTypeChecks(project, `tsconfig.one-version.${resolution}.json`);
      const { stdout } = await run(process.execPath, [tscBin, ...args, "--listFilesOnly"], {
        cwd: project,
      });
      const generated = stdout
        .split("\n")
        .filter((file) => file.includes("@drill-practice/client/dist/generated/"))
        .map((file) => file.slice(file.lastIndexOf("/") + 1))
        .sort();
      // The 2.0 entry's generated body and types only: neither the all-versions file nor the 2.1 ones.
      expect(generated).toEqual(["entry-v2.0.d.ts", "openapi-v2.0.d.ts", "schemas-v2.0.d.ts"]);
    },
    300_000,
  );

  it("an unused @ts-expect-error would fail: the checks above are live", async () => {
    await writeFile(
      join(project, "broken.ts"),
      'import { createDrillClient } from "@drill-practice/client";\n' +
        'const client = createDrillClient({ baseUrl: "https://drill.example" });\n' +
        "// @ts-expect-error this path exists, so the directive is unused\n" +
        'void client.GET("/api/2/version");\n',
    );
    await writeFile(
      join(project, "tsconfig.broken.json"),
      tsconfig("nodenext").replace('"consumer.ts"', '"broken.ts"'),
    );
    const failure = await run(process.execPath, [tscBin, "-p", "tsconfig.broken.json"], {
      cwd: project,
    }).then(
      () => "",
      (error: { stdout?: string }) => error.stdout ?? "",
    );
    expect(failure).toContain("TS2578");
  }, 300_000);

  /**
   * The runner imports both compiled consumers, so both must exist whichever test runs first (the
   * nodenext type-checks emit them; under shuffled order they may not have run yet).
   */
  async function compiledConsumers(): Promise<string> {
    const out = join(project, "out-nodenext");
    for (const [output, config] of [
      ["consumer.js", "tsconfig.nodenext.json"],
      ["one-version.js", "tsconfig.one-version.nodenext.json"],
    ] as const) {
      if (!existsSync(join(out, output)))
        await run(process.execPath, [tscBin, "-p", config], { cwd: project });
    }
    await writeFile(join(out, "run.mjs"), RUNNER);
    return out;
  }

  it("runs in Node from the installed package", async () => {
    const out = await compiledConsumers();
    const { stdout } = await run(process.execPath, ["run.mjs"], { cwd: out });
    expect(JSON.parse(stdout)).toEqual([
      "store:3:Drill a",
      "question:a,b",
      "v21:200",
      "error:400:query_missing",
      "paginated:3",
      "token:bearer",
      expect.stringMatching(/^version:\d+\.\d+\.\d+/),
    ]);
  }, 300_000);

  it("runs a one-version consumer in Node from the installed package", async () => {
    const out = await compiledConsumers();
    const { stdout } = await run(process.execPath, ["run.mjs", "one-version"], { cwd: out });
    expect(JSON.parse(stdout)).toEqual([
      "store:3:Drill a",
      "error:400:query_missing",
      "paginated:3",
      "option:version",
    ]);
  }, 300_000);
});
