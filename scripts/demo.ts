/**
 * `pnpm demo`: a complete integration through the public packages only.
 *
 * Without `DRILL_BASE_URL` it starts the embedded sandbox on a free port with
 * fresh credentials; with `DRILL_BASE_URL`, `DRILL_CLIENT_ID`,
 * `DRILL_CLIENT_SECRET` and `DRILL_KEY_FILE` set it runs against that
 * deployment instead (`DRILL_DEMO_SUBJECT`, `DRILL_DEMO_CATALOG` and
 * `DRILL_DEMO_QUERY`, `DRILL_DEMO_DRILL` name a managed user, a catalog, a
 * search and a drill that exist there).
 */
import { createTokenProvider } from "@drill-practice/auth";
import { readServiceAccountKey, serviceAccountAuth } from "@drill-practice/auth/node";
import {
  type AnswerResponse,
  createDrillClient,
  DrillApiError,
  type Drillables,
  type DrillClient,
  type QuestionResponse,
  unwrap,
} from "@drill-practice/client";
import { paginateStorePages } from "@drill-practice/client/pagination";
import { DEFAULT_IDS, startSandbox } from "@drill-practice/sandbox";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";

interface Target {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  keyFile: string;
  subject: string;
  catalog: string | undefined;
  searchWords: [string, string];
  drill: string | undefined;
  close(): Promise<void>;
}

const started = performance.now();
const out = (line = "") => console.log(line);
const ms = (since: number) => `${(performance.now() - since).toFixed(0)} ms`;

async function step<T>(run: () => Promise<T>): Promise<T> {
  const at = performance.now();
  const result = await run();
  out(`  (${ms(at)})`);
  return result;
}

async function sandboxTarget(): Promise<Target> {
  const dir = await makeScratchDir("drill-demo-");
  const sandbox = await startSandbox({ port: 0, credentialsDir: dir });
  const keyFile = sandbox.credentialsFiles?.keyFile;
  if (!keyFile) throw new Error("the sandbox wrote no key file");
  out(`Started the sandbox at ${sandbox.url} (credentials in ${dir})`);
  return {
    baseUrl: sandbox.url,
    clientId: sandbox.credentials.clientId,
    clientSecret: sandbox.credentials.clientSecret,
    keyFile,
    subject: "ana.garcia@academy.example",
    catalog: DEFAULT_IDS.catalogs.business,
    searchWords: ["spanish", "animals"],
    drill: "math-times-7",
    close: async () => {
      await sandbox.close();
      await removeScratchDir(dir);
    },
  };
}

function remoteTarget(env: NodeJS.ProcessEnv): Target {
  const missing = ["DRILL_CLIENT_ID", "DRILL_CLIENT_SECRET", "DRILL_KEY_FILE", "DRILL_DEMO_SUBJECT"].filter(
    (name) => !env[name],
  );
  if (missing.length > 0) {
    throw new Error(`DRILL_BASE_URL is set, so the demo needs these too: ${missing.join(", ")}`);
  }
  const [first = "spanish", second = "animals"] = (env.DRILL_DEMO_QUERY ?? "").split(" ").filter(Boolean);
  return {
    baseUrl: String(env.DRILL_BASE_URL),
    clientId: String(env.DRILL_CLIENT_ID),
    clientSecret: String(env.DRILL_CLIENT_SECRET),
    keyFile: String(env.DRILL_KEY_FILE),
    subject: String(env.DRILL_DEMO_SUBJECT),
    catalog: env.DRILL_DEMO_CATALOG,
    searchWords: [first, second],
    drill: env.DRILL_DEMO_DRILL,
    close: async () => {},
  };
}

function describeHits(result: Drillables, limit = 3): string {
  const names = result.drills.slice(0, limit).map((d) => `"${d.name}"`);
  const more = result.total > names.length ? `, … (${result.total} in all)` : "";
  return `${result.total} found: ${names.join(", ")}${more}`;
}

async function search(client: DrillClient, query: Record<string, unknown>): Promise<Drillables> {
  return unwrap(client.GET("/api/2/store", { params: { query } }));
}

/** Works out `a × b`, `a ÷ b`, `a + b` and `a − b`; anything else it cannot answer. */
function solve(ask: string): string | undefined {
  const match = /^\s*(-?\d+)\s*([×x*÷/+−-])\s*(-?\d+)\s*$/.exec(ask);
  if (!match) return undefined;
  const [, left, op, right] = match;
  const a = Number(left);
  const b = Number(right);
  const result =
    op === "÷" || op === "/" ? a / b : op === "+" ? a + b : op === "−" || op === "-" ? a - b : a * b;
  return Number.isInteger(result) ? String(result) : undefined;
}

/**
 * Practises ten questions: works the answer out where it can, guesses otherwise,
 * and answers questions 4 and 8 wrong on purpose so the status shows both.
 */
async function practise(client: DrillClient, drillId: string) {
  let right = 0;
  let wrong = 0;
  for (let n = 1; n <= 10; n += 1) {
    const next = (await unwrap(
      client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: drillId } } }),
    )) as QuestionResponse;
    const question = next.question;
    const asked = question?.ask?.term?.value ?? "?";
    const choices = (question?.tell?.terms ?? []).map((t) => t.value ?? "");
    const worked = solve(asked);
    const onPurpose = n % 4 === 0 && worked !== undefined;
    const choice = onPurpose
      ? (choices.find((c) => c !== worked) ?? "")
      : worked && choices.includes(worked)
        ? worked
        : (choices[0] ?? "");
    // Sent as the form field answer (answer=…), the way the service takes it.
    const reply = (await unwrap(
      client.PUT("/api/2/answer/{reference}", {
        params: { path: { reference: question?.reference ?? "" } },
        body: { answer: [choice] },
      }),
    )) as AnswerResponse;
    const correct = reply.evaluation?.result === "CORRECT";
    if (correct) right += 1;
    else wrong += 1;
    const how = onPurpose ? " (wrong on purpose)" : worked ? "" : " (guessed)";
    const missed = reply.evaluation?.termEvaluations
      .filter((term) => term.result === "MISSED")
      .map((term) => term.value);
    const expected = missed && missed.length > 0 ? `, expected ${missed.join(", ")}` : "";
    out(
      `    #${question?.sequenceNr} ${asked} = ${choice}: ${correct ? "right" : "wrong"}${expected}${how}, proficiency ${reply.proficiency?.overall ?? "?"}`,
    );
  }
  return { right, wrong };
}

async function main(): Promise<void> {
  out("Drill Practice SDK demo");
  out("=======================");
  const target = process.env.DRILL_BASE_URL ? remoteTarget(process.env) : await sandboxTarget();
  try {
    const client = createDrillClient({
      baseUrl: target.baseUrl,
      auth: serviceAccountAuth({
        keyFile: target.keyFile,
        clientId: target.clientId,
        clientSecret: target.clientSecret,
      }),
    });

    out("\n1. Discover the token endpoint");
    const metadata = await step(() => unwrap(client.GET("/.well-known/oauth-authorization-server")));
    out(`  token_endpoint: ${metadata.token_endpoint}`);

    out("\n2. Get tokens (JWT bearer grant)");
    const key = await readServiceAccountKey(target.keyFile);
    const provider = createTokenProvider({
      baseUrl: target.baseUrl,
      clientId: target.clientId,
      clientSecret: target.clientSecret,
      key,
    });
    await step(async () => {
      const own = await provider.getToken();
      out(`  service account ${key.serviceAccountId}: ${own}`);
      const user = await provider.getToken({ subject: target.subject });
      out(`  managed user ${target.subject}: ${user}`);
    });

    out("\n3. Search the store");
    const [a, b] = target.searchWords;
    await step(async () => {
      out(`  "${a} ${b}" (any word): ${describeHits(await search(client, { query: `${a} ${b}` }))}`);
      out(`  "${a} AND ${b}" (all words): ${describeHits(await search(client, { query: `${a} AND ${b}` }))}`);
      const names = await search(client, { query: a, searchField: ["NAME"] });
      out(`  "${a}" in NAME only: ${describeHits(names)}`);
      if (target.catalog) {
        const listing = await search(client, { catalog: target.catalog, resultSize: "3" });
        out(`  catalog ${target.catalog}, sorted by name: ${describeHits(listing)}`);
      }
    });

    out("\n4. Page through results (page size 7)");
    const firstIds: string[] = [];
    await step(async () => {
      let pages = 0;
      for await (const page of paginateStorePages(client, { query: a }, { pageSize: 7 })) {
        pages += 1;
        firstIds.push(...page.drills.map((d) => d.id));
        out(`  page ${pages}: results ${page.start}–${page.start + page.drills.length - 1} of ${page.total}`);
      }
      out(`  ${firstIds.length} drillables, ${new Set(firstIds).size} distinct`);
    });

    const drillId = target.drill ?? firstIds[0];
    if (!drillId) throw new Error(`the search for "${a}" found nothing to practise`);
    out(`\n5. Practise ${drillId} for ten questions`);
    const tally = await step(() => practise(client, drillId));
    out(`  ${tally.right} right, ${tally.wrong} wrong`);

    out("\n6. Practice status");
    await step(async () => {
      const { data } = await client.GET("/api/2.1/rendition/{drillable}", {
        params: { path: { drillable: drillId } },
      });
      // The rendition's shape is not shown by the interface; these are the sandbox's fields.
      const status = data as Record<string, unknown> | undefined;
      const levels = (value: unknown) => {
        const p = value as { receptive?: number; productive?: number; overall?: number } | undefined;
        return `receptive ${p?.receptive}, productive ${p?.productive}, overall ${p?.overall}`;
      };
      out(`  answers: ${status?.answerCount}, correct: ${status?.correctCount}`);
      out(`  proficiency: ${levels(status?.proficiency)}`);
      out(`  highest:     ${levels(status?.highestProficiency)}`);
    });

    out("\n7. Repertoire");
    await step(async () => {
      await client.PUT("/api/2.1/repertoire/{drillable}", { params: { path: { drillable: drillId } } });
      const { data } = await client.GET("/api/2.1/repertoire");
      const list = data as Partial<Drillables> | undefined;
      out(
        `  added ${drillId}; repertoire now holds ${list?.total ?? "?"}: ${list?.drills?.map((d) => d.id).join(", ")}`,
      );
    });

    out("\n8. An error, handled");
    await step(async () => {
      try {
        await search(client, {});
        throw new Error("a search without query and catalog succeeded");
      } catch (error) {
        if (!(error instanceof DrillApiError)) throw error;
        out(`  ${error.operation.method} ${error.operation.path} → ${error.status} ${error.errorId}`);
      }
    });

    out(`\nDone in ${ms(started)}.`);
  } finally {
    await target.close();
  }
}

main().catch((error: unknown) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
