/**
 * Search the store and practise the first drill found.
 *
 * Run it against the sandbox (or your deployment) with the usual variables:
 *
 *   npx -p @drill-practice/sandbox drill-sandbox --credentials-dir ./.sandbox &
 *   set -a; . ./.sandbox/client.env; set +a
 *   pnpm exec tsx examples/search-and-practise.ts "spanish AND animals"
 *
 * When the service cannot be reached or keeps failing, it prints the error's code
 * and message and exits with status 1 within the retry budget (see the client README).
 * DRILL_TIMEOUT_MS sets the limit of one HTTP attempt (default 30000).
 */
import { serviceAccountAuth } from "@drill-practice/auth/node";
import { createDrillClient, DrillError, unwrap } from "@drill-practice/client";

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (see the comment at the top of this file)`);
  return value;
}

const query = process.argv[2] ?? "spanish";
const timeoutMs = process.env.DRILL_TIMEOUT_MS ? Number(process.env.DRILL_TIMEOUT_MS) : undefined;
const client = createDrillClient({
  baseUrl: required("DRILL_BASE_URL"),
  timeoutMs,
  auth: serviceAccountAuth({
    keyFile: required("DRILL_KEY_FILE"),
    clientId: required("DRILL_CLIENT_ID"),
    clientSecret: required("DRILL_CLIENT_SECRET"),
    subject: process.env.DRILL_SUBJECT,
    timeoutMs,
  }),
});

try {
  const results = await unwrap(
    client.GET("/api/2/store", {
      params: { query: { query, searchField: ["NAME", "TAGS"], resultSize: "5" } },
    }),
  );
  console.log(`${results.total} drillables match "${query}"`);
  for (const drill of results.drills) console.log(`- ${drill.id}: ${drill.name} (${drill.subject})`);

  const first = results.drills.find((d) => d.type === "DRILL");
  if (first) {
    const { question } = await unwrap(
      client.GET("/api/2/question/{drill_id}", { params: { path: { drill_id: first.id } } }),
    );
    const choices = question?.tell?.terms?.map((t) => t.value) ?? [];
    console.log(`\n${question?.ask?.name}: ${question?.ask?.term?.value}  →  ${question?.tell?.name}?`);
    console.log(`choices: ${choices.join(" | ")}`);
    // Observed in the deployed service: the answer goes as the form field `answer` (a list for
    // several values, sent as the field repeated) and the reply evaluates it.
    const reply = await unwrap(
      client.PUT("/api/2/answer/{reference}", {
        params: { path: { reference: question?.reference ?? "" } },
        body: { answer: [choices[0] ?? ""] },
      }),
    );
    const terms = reply.evaluation?.termEvaluations.map((t) => `${t.value} ${t.result}`) ?? [];
    console.log(
      `answered "${choices[0]}": ${reply.evaluation?.result} (${terms.join(", ")}), proficiency ${reply.proficiency?.overall}`,
    );
  }
} catch (error) {
  // Every error of the SDK (API answers, network, timeouts, auth) has a stable code.
  if (!(error instanceof DrillError)) throw error;
  console.error(`${error.code}: ${error.message}`);
  process.exitCode = 1;
}
