/**
 * The Try it panel in Debian's Chromium, against the built site: every operation of both
 * references sent once with its prefilled values; a flow across operations whose state carries from
 * one reference to the other; and a request's copy as curl replayed against the `drill-sandbox` CLI.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { type Sandbox, SIMULATED_OPERATIONS, startSandbox } from "@drill-practice/sandbox";
import { runProcess, type StartedProcess, startProcess } from "@drill-practice/tooling/process";
import { scratchDirForAll } from "@drill-practice/tooling/scratch-hooks";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../src/openapi-document.ts";
import { type ApiVersion, apiVersions } from "../src/site-header.ts";
import {
  chromiumFor,
  collectPageErrors,
  openSiteInChromium,
  type SiteInChromium,
} from "./helpers/browser.ts";
import { readClientEnv } from "./helpers/client-env.ts";
import { loadBundle, screenshotDir } from "./helpers/site.ts";
import { builtTable, type FlowStep, openPanel, type PanelAnswer, sendFrom } from "./helpers/try-it.ts";

const chromium = chromiumFor("docs Try it tests");

const v21 = apiVersions.find((version) => version.id === "2.1") as ApiVersion;
const v20 = apiVersions.find((version) => version.id === "2.0") as ApiVersion;

/** The operation whose panel the page-level checks open: the store search, or 2.1.1's group search (it has no store). */
const panelOperation = (version: ApiVersion) =>
  `${version.id === "2.1.1" ? "searchGroups" : "searchStore"}_v${version.id.replaceAll(".", "_")}`;

/** Redoc's address of each operation of a version: `<tag>/<operationId in lower case>`. */
async function slugs(version: ApiVersion): Promise<Map<string, string>> {
  const bundle = await loadBundle(version);
  return new Map(
    listOperations(bundle).map(({ operation }) => {
      const id = operation.operationId as string;
      return [id, `${operation.tags?.[0]}/${id.toLowerCase()}`];
    }),
  );
}

describe.runIf(chromium.found)("Try it in Chromium", () => {
  let site: SiteInChromium;

  beforeAll(async () => {
    site = await openSiteInChromium(chromium.path);
  }, 90_000);

  afterAll(() => site?.close());

  /** A reference, hydrated, with console errors and uncaught exceptions collected in `errors`. */
  async function watched(errors: string[]): Promise<Page> {
    const tab = await site.browser.context.newPage();
    collectPageErrors(tab, errors);
    return tab;
  }

  async function openReference(version: ApiVersion, errors: string[], page?: Page): Promise<Page> {
    const tab = page ?? (await watched(errors));
    await tab.goto(new URL(`${version.dir}/index.html`, site.server.url).href, { waitUntil: "load" });
    await tab.locator('.menu-content img[alt="redocly logo"]').waitFor({ state: "visible", timeout: 30_000 });
    return tab;
  }

  it.each(apiVersions)(
    "reference $id: every operation, sent once with its prefilled values, gets an answer the panel classifies",
    async (version) => {
      const table = await builtTable(version);
      const addresses = await slugs(version);
      expect(table.map((op) => op.operationId).sort()).toEqual([...addresses.keys()].sort());
      const errors: string[] = [];
      const page = await openReference(version, errors);
      // Values only an earlier answer gives (a question's reference) come from the answers before.
      const ordered = [...table].sort(
        (a, b) => Number(a.fields.some((f) => f.hint)) - Number(b.fields.some((f) => f.hint)),
      );
      const wrong: string[] = [];
      const verdicts = new Map<string, number>();
      for (const operation of ordered) {
        // An operation the sandbox does not simulate gets no earlier answer to take a value from: a
        // reader types one, and the answer is "not simulated" whatever it is.
        const typed =
          operation.faithfulness === "not simulated"
            ? Object.fromEntries(operation.fields.filter((f) => f.hint).map((f) => [f.name, "typed-by-hand"]))
            : {};
        const answer = await sendFrom(page, addresses.get(operation.operationId) as string, typed);
        verdicts.set(answer.verdict, (verdicts.get(answer.verdict) ?? 0) + 1);
        const id = answer.status >= 400 ? (JSON.parse(answer.body) as { id?: string }).id : undefined;
        // What the answer is, read from the answer itself, against what the panel says it is.
        const expected =
          answer.status === 501 && id === "not_simulated"
            ? "not-simulated"
            : answer.status >= 400
              ? "documented-error"
              : operation.successShape === "schema"
                ? "schema-valid"
                : "documented-success";
        const problems = [
          answer.verdict !== expected && `the panel says ${answer.verdict}, the answer is ${expected}`,
          expected === "documented-error" && typeof id !== "string" && "an error without an identifier",
          // Identifiers show as code, not as Markdown's backticks.
          answer.verdictText.includes("`") && `the verdict shows backticks: ${answer.verdictText}`,
          // The faithfulness the panel announced must hold: only operations it calls "not simulated" answer so.
          (expected === "not-simulated") !== (operation.faithfulness === "not simulated") &&
            answer.status !== 400 &&
            `announced as ${operation.faithfulness}, answered ${answer.status} ${id ?? ""}`,
        ].filter(Boolean);
        if (problems.length > 0)
          wrong.push(`${operation.operationId}: ${problems.join("; ")} (${answer.text.slice(0, 200)})`);
      }
      expect(wrong).toEqual([]);
      expect(errors).toEqual([]);
      // Every kind occurs: the sandbox simulates some, answers examples for others, and says so for
      // the rest (2.1.1 has no examples answered, but simulates groups, users and beacons, #46).
      expect([...verdicts.keys()].sort()).toEqual([
        "documented-error",
        "documented-success",
        "not-simulated",
        "schema-valid",
      ]);
      await page.close();
    },
    900_000,
  );

  /**
   * Runs steps in order on one reference; a step on the other reference's operation (by its
   * version suffix) first loads that reference, whose new sandbox takes the session's state over.
   */
  async function runFlow(steps: FlowStep[], errors: string[]): Promise<void> {
    const addresses = new Map([...(await slugs(v21)), ...(await slugs(v20))]);
    let page: Page | undefined;
    let on: ApiVersion | undefined;
    const answers: PanelAnswer[] = [];
    for (const step of steps) {
      const version = step.operationId.endsWith("_v2_0") ? v20 : v21;
      if (version !== on) {
        page = await openReference(version, errors, page);
        on = version;
      }
      const fill = typeof step.fill === "function" ? step.fill(answers) : step.fill;
      const answer = await sendFrom(page as Page, addresses.get(step.operationId) as string, fill);
      step.check(answer);
      answers.push(answer);
    }
    await page?.close();
  }

  const listed = (answer: PanelAnswer): string[] =>
    ((JSON.parse(answer.body) as { drills?: { id: string }[] }).drills ?? []).map((d) => d.id);

  const groupNames = (answer: PanelAnswer): string[] =>
    ((JSON.parse(answer.body) as { groups?: { name: string }[] }).groups ?? []).map((g) => g.name);
  const createdId = (earlier: readonly PanelAnswer[]): string =>
    (JSON.parse((earlier[1] as PanelAnswer).body) as { id: string }).id;

  it("a flow across operations keeps its state from one reference to the other and on reload", async () => {
    // Create a group, find it in the list, see it from the 2.0 reference, delete it, miss it.
    const name = "Try it flow group";
    const errors: string[] = [];
    await runFlow(
      [
        { operationId: "searchGroups_v2_1", check: (a) => expect(groupNames(a)).not.toContain(name) },
        {
          operationId: "createGroup_v2_1",
          fill: { name, description: "made by the docs' Try it test" },
          check: (a) => expect(a.verdict).toBe("schema-valid"),
        },
        { operationId: "searchGroups_v2_1", check: (a) => expect(groupNames(a)).toContain(name) },
        // The other reference: a new page, whose sandbox replays this session's changes.
        {
          operationId: "listGroupMembers_v2_0",
          fill: (earlier) => ({ group_id: createdId(earlier) }),
          check: (a) => expect((JSON.parse(a.body) as { name: string }).name).toBe(name),
        },
        {
          operationId: "deleteGroup_v2_1",
          fill: (earlier) => ({ group: createdId(earlier) }),
          check: (a) => expect(a.status).toBeLessThan(400),
        },
        { operationId: "searchGroups_v2_1", check: (a) => expect(groupNames(a)).not.toContain(name) },
      ],
      errors,
    );
    expect(errors).toEqual([]);
  }, 180_000);

  it("Reset starts a fresh sandbox: what the session changed is gone", async () => {
    const errors: string[] = [];
    const page = await openReference(v21, errors);
    const addresses = await slugs(v21);
    const add = addresses.get("addToRepertoire_v2_1") as string;
    const list = addresses.get("listRepertoire_v2_1") as string;
    await sendFrom(page, add, { drillable: "fr-review-4" });
    expect(listed(await sendFrom(page, list))).toContain("fr-review-4");
    await page.reload();
    await page
      .locator('.menu-content img[alt="redocly logo"]')
      .waitFor({ state: "visible", timeout: 30_000 });
    const restored = await sendFrom(page, list);
    expect(listed(restored)).toContain("fr-review-4");
    await expect(
      page.locator(`[data-section-id$="/${list}"] .dp-tryit-output`).textContent(),
    ).resolves.toContain("Restored 1 earlier change");
    await page.locator(`[data-section-id$="/${list}"] .dp-tryit-reset`).click();
    expect(listed(await sendFrom(page, list))).not.toContain("fr-review-4");
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it("says what the sandbox does in words and code, not raw Markdown: the sentence of the page's own note", async () => {
    const table = await builtTable(v21);
    // Today's sandbox marks names with backticks in most of its sentences: the check has cases.
    const said: Readonly<Record<string, string>> = SIMULATED_OPERATIONS;
    const marked = table.filter((operation) => said[operation.operationId]?.includes("`"));
    expect(marked.length).toBeGreaterThan(50);
    const errors: string[] = [];
    const page = await openReference(v21, errors);
    const addresses = await slugs(v21);
    for (const operation of marked.slice(0, 3)) {
      const slug = addresses.get(operation.operationId) as string;
      const panel = await openPanel(page, slug);
      const behaviour = panel.locator(".dp-tryit-behaviour");
      await expect(behaviour.locator("strong").textContent()).resolves.toBe("Simulated:");
      await expect(behaviour.textContent()).resolves.not.toContain("`");
      expect(await behaviour.locator("code").count(), operation.operationId).toBeGreaterThan(0);
      // The same sentence as the page's "In the sandbox" note above, not a second wording.
      const note = await page
        .locator(`[data-section-id$="/${slug}"] .dp-note-sandbox .dp-sandbox-behaviour`)
        .first()
        .textContent();
      await expect(behaviour.textContent()).resolves.toBe(`Simulated: ${note}.`);
      // The sentence is plain text beside the label, not one long bold paragraph.
      const bold = await behaviour
        .locator("strong")
        .evaluateAll((nodes) => nodes.map((node) => node.textContent));
      expect(bold).toEqual(["Simulated:"]);
    }
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it("on the reference's introduction the panel waits for the reader: only prefetched until they open an operation", async () => {
    const errors: string[] = [];
    const page = await openReference(v21, errors);
    // The loader's first quiet moment prefetches the panel's module...
    await page
      .locator('link[rel="prefetch"][href*="/try-it."]')
      .waitFor({ state: "attached", timeout: 30_000 });
    await page.waitForTimeout(1000);
    await page.evaluate("new Promise((r) => requestIdleCallback(() => requestIdleCallback(r)))");
    // ...but runs none of it while the reader stays on the introduction (the panel brings its own styles).
    const panelStyles = `[...document.styleSheets].some((s) => [...s.cssRules].some((r) => r.selectorText === ".dp-tryit"))`;
    await expect(page.evaluate(panelStyles)).resolves.toBe(false);
    await page.locator(".menu-item-type-group > a").first().click();
    await page.locator(".menu-item-type-operation a").first().click();
    await page
      .locator(".panel-request-samples + .dp-tryit")
      .first()
      .waitFor({ state: "attached", timeout: 30_000 });
    await expect(page.evaluate(panelStyles)).resolves.toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  for (const mode of ["light", "dark"] as const) {
    it.each(apiVersions)(
      `reference $id in ${mode} mode, the panel open with an answer: axe finds no serious or critical violation`,
      async (version) => {
        const errors: string[] = [];
        const page = await watched(errors);
        await page.emulateMedia({ colorScheme: mode });
        await openReference(version, errors, page);
        const slug = (await slugs(version)).get(panelOperation(version)) as string;
        await sendFrom(page, slug);
        const panel = page.locator(`[data-section-id$="/${slug}"] .dp-tryit`);
        await panel.locator(".dp-tryit-steps summary").click();
        // The opened steps show the assertion auth signed, decoded: its header and its claims.
        const shown = JSON.parse((await panel.locator(".dp-tryit-steps pre").textContent()) ?? "") as {
          header: Record<string, unknown>;
          claims: Record<string, unknown>;
        };
        expect(shown.header).toMatchObject({ alg: "RS256", typ: "JWT", kid: expect.any(String) });
        expect(shown.claims).toMatchObject({
          iss: expect.any(String),
          aud: expect.stringMatching(/\/token$/),
        });
        await panel.getByRole("radio", { name: "Your own server" }).check();
        await panel.scrollIntoViewIfNeeded();
        // The panel and what it adds; the rest of the reference is the site-wide axe test's (browser.test.ts).
        const results = await new AxeBuilder({ page }).include(".dp-tryit").analyze();
        const bad = results.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id} ×${v.nodes.length}: ${v.nodes[0]?.html.slice(0, 160)}`);
        expect(bad).toEqual([]);
        await page.screenshot({ path: join(screenshotDir, `try-it-${version.dir}-${mode}.png`) });
        expect(errors).toEqual([]);
        await page.close();
      },
      120_000,
    );
  }

  it.each(apiVersions)(
    "reference $id at 390×844: the open panel fits the screen and is used by keyboard alone",
    async (version) => {
      const errors: string[] = [];
      const page = await watched(errors);
      await page.setViewportSize({ width: 390, height: 844 });
      const slug = (await slugs(version)).get(panelOperation(version)) as string;
      // On a phone Redoc folds its menu away: the operation's own address opens it.
      await page.goto(new URL(`${version.dir}/index.html#/${slug}`, site.server.url).href);
      const panel = page.locator(`[data-section-id$="/${slug}"] .dp-tryit`);
      await panel.waitFor({ state: "attached", timeout: 30_000 });
      // Keyboard only: focus the toggle, open with Enter, Tab to Send, press Enter.
      await panel.locator(".dp-tryit-toggle").focus();
      await page.keyboard.press("Enter");
      await expect(panel.locator(".dp-tryit-toggle").getAttribute("aria-expanded")).resolves.toBe("true");
      await panel.locator(".dp-tryit-send").focus();
      await page.keyboard.press("Enter");
      await panel.locator(".dp-tryit-answer").waitFor({ state: "attached", timeout: 30_000 });
      await panel.scrollIntoViewIfNeeded();
      const layout = (await page.evaluate(`(() => {
      const panel = document.querySelector('[data-section-id$="/${slug}"] .dp-tryit');
      const box = panel.getBoundingClientRect();
      const outside = [...panel.querySelectorAll("input, select, textarea, button, pre, label")]
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => [el, el.getBoundingClientRect()])
        .filter(([, r]) => r.left < box.left - 1 || r.right > box.right + 1)
        .map(([el]) => el.outerHTML.slice(0, 80));
      const small = [...panel.querySelectorAll("button")].filter((b) => b.getClientRects().length > 0 && b.getBoundingClientRect().height < 32).map((b) => b.textContent);
      return { screen: document.documentElement.clientWidth, page: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth), left: box.left, right: box.right, outside, small };
    })()`)) as {
        screen: number;
        page: number;
        left: number;
        right: number;
        outside: string[];
        small: string[];
      };
      expect(layout.screen).toBe(390);
      expect(layout.page, "the page is wider than the screen").toBeLessThanOrEqual(390);
      expect(layout.left).toBeGreaterThanOrEqual(0);
      expect(layout.right).toBeLessThanOrEqual(390);
      expect(layout.outside, "controls sticking out of the panel").toEqual([]);
      expect(layout.small, "buttons too small to tap").toEqual([]);
      await panel.screenshot({ path: join(screenshotDir, `try-it-phone-${version.dir}.png`) });
      expect(errors).toEqual([]);
      await page.close();
    },
    120_000,
  );

  describe("copy as curl", () => {
    const dir = scratchDirForAll("drill-docs-try-it-");
    let cli: StartedProcess | undefined;
    let env: Record<string, string>;

    beforeAll(async () => {
      const require = createRequire(import.meta.url);
      const sandboxBin = join(
        dirname(require.resolve("@drill-practice/sandbox/package.json")),
        "bin",
        "drill-sandbox.js",
      );
      const drillToken = join(
        dirname(require.resolve("@drill-practice/auth/package.json")),
        "bin",
        "drill-token.js",
      );
      cli = await startProcess({
        command: process.execPath,
        args: [sandboxBin, "--port", "0", "--quiet", "--credentials-dir", join(dir(), "creds")],
        cwd: dir(),
        env: process.env,
        readyWhen: /listening on http:\/\/127\.0\.0\.1:\d+/,
        startMs: 45_000,
        name: "drill-sandbox",
      });
      env = await readClientEnv(join(dir(), "creds"));
      // `npx -p @drill-practice/auth drill-token` runs the workspace's drill-token: no registry.
      await mkdir(join(dir(), "bin"));
      await writeFile(
        join(dir(), "bin", "npx"),
        `#!/bin/sh\n[ "$1 $2 $3" = "-p @drill-practice/auth drill-token" ] || { echo "unexpected npx $*" >&2; exit 9; }\nshift 3\nexec "${process.execPath}" "${drillToken}" "$@"\n`,
      );
      await chmod(join(dir(), "bin", "npx"), 0o755);
      env.PATH = `${join(dir(), "bin")}:${process.env.PATH ?? ""}`;
    }, 60_000);

    afterAll(async () => {
      cli?.child.kill("SIGTERM");
      await cli?.exited();
    });

    it("the curl command of a request sent from the panel gets the same answer from drill-sandbox", async () => {
      const errors: string[] = [];
      const page = await openReference(v21, errors);
      await site.browser.context.grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: new URL(site.server.url).origin,
      });
      const slug = (await slugs(v21)).get("searchStore_v2_1") as string;
      const answer = await sendFrom(page, slug, { query: "spanish AND verbs", resultSize: "3" });
      expect(answer.status).toBe(200);
      const panel = page.locator(`[data-section-id$="/${slug}"] .dp-tryit`);
      await panel.getByRole("button", { name: "Copy as curl" }).click();
      const shown = panel.locator(".dp-tryit-copied");
      await expect.poll(() => shown.getAttribute("data-language")).toBe("curl");
      const curl = (await shown.textContent()) ?? "";
      // What the clipboard holds is what is shown.
      await expect(page.evaluate("navigator.clipboard.readText()")).resolves.toBe(curl);
      expect(curl).toContain("query=spanish%20AND%20verbs");
      const replayed = await runProcess({
        command: "bash",
        args: ["--norc", "--noprofile", "-eo", "pipefail", "-c", curl],
        cwd: dir(),
        env,
        timeoutMs: 30_000,
      });
      expect(replayed.stderr).toBe("");
      expect(replayed.exitCode).toBe(0);
      expect(JSON.parse(replayed.stdout)).toEqual(JSON.parse(answer.body));
      expect(errors).toEqual([]);
      await page.close();
    }, 120_000);

    it("your own server: a server that does not allow this site is reported as blocked, with the curl command instead; the token is kept nowhere", async () => {
      const errors: string[] = [];
      const page = await openReference(v21, errors);
      const slug = (await slugs(v21)).get("getVersion_v2_1") as string;
      const panel = await openPanel(page, slug);
      await panel.getByRole("radio", { name: "Your own server" }).check();
      // drill-sandbox sends no CORS headers, so the browser must not let the page read its answer.
      await panel.getByLabel("Base URL").fill(env.DRILL_BASE_URL as string);
      const token = "secret-token-for-the-test";
      await panel.getByLabel(/Bearer token/).fill(token);
      await panel.locator(".dp-tryit-send").click();
      const problem = panel.locator(".dp-tryit-problem");
      await problem.waitFor({ state: "visible", timeout: 30_000 });
      await expect(problem.textContent()).resolves.toContain("CORS");
      await panel.getByRole("button", { name: "Copy as curl" }).click();
      const copied = panel.locator(".dp-tryit-copied");
      await expect.poll(() => copied.getAttribute("data-language")).toBe("curl");
      const curl = (await copied.textContent()) ?? "";
      expect(curl).toContain(`DRILL_BASE_URL='${env.DRILL_BASE_URL}'`);
      expect(curl).toContain("/api/2.1/version");
      expect(curl).not.toContain(token);
      const stored = (await page.evaluate(
        "JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])",
      )) as string;
      expect(stored).not.toContain(token);
      // The blocked request is Chromium's own console error about CORS; nothing of the page's.
      expect(errors.filter((e) => !/CORS|ERR_FAILED/.test(e))).toEqual([]);
      await page.close();
    }, 120_000);
  });

  describe("your own server that allows this site (CORS)", () => {
    let sandbox: Sandbox | undefined;
    let token: string;

    beforeAll(async () => {
      // What `pnpm start` does: the sandbox trusts the origin the docs are served from.
      sandbox = await startSandbox({ corsOrigins: [new URL(site.server.url).origin] });
      const { credentials } = sandbox;
      const provider = createTokenProvider({
        baseUrl: sandbox.url,
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
        key: await parseServiceAccountKey(JSON.stringify(credentials.keyFile())),
      });
      token = (await provider.getToken()).value;
    }, 60_000);

    afterAll(() => sandbox?.close());

    const v211 = apiVersions.find((version) => version.id === "2.1.1") as ApiVersion;
    /** Per reference, operations sent from the panel: operationId, fields typed, the same request's path. */
    const sent: [ApiVersion, [string, Record<string, string>, string][]][] = [
      [
        v211,
        [
          ["getOwnUser_v2_1_1", {}, "/api/2.1.1/user"],
          ["searchGroups_v2_1_1", { query: "spanish" }, "/api/2.1.1/groups?query=spanish"],
        ],
      ],
      [
        v21,
        [
          ["getVersion_v2_1", {}, "/api/2.1/version"],
          ["searchStore_v2_1", { query: "spanish" }, "/api/2.1/store?query=spanish"],
        ],
      ],
    ];

    it.each(sent.map(([version, operations]) => ({ id: version.id, version, operations })))(
      "reference $id answers 200 in the panel, the same answer the sandbox gives outside the browser",
      async ({ version, operations }) => {
        const server = sandbox as Sandbox;
        const errors: string[] = [];
        const page = await openReference(version, errors);
        const slugOf = await slugs(version);
        for (const [operationId, fill, target] of operations) {
          const slug = slugOf.get(operationId) as string;
          const panel = await openPanel(page, slug);
          await panel.getByRole("radio", { name: "Your own server" }).check();
          await panel.getByLabel("Base URL").fill(server.url);
          await panel.getByLabel(/Bearer token/).fill(token);
          const answer = await sendFrom(page, slug, fill);
          expect(answer.status, operationId).toBe(200);
          const direct = await fetch(`${server.url}${target}`, {
            headers: { authorization: `Bearer ${token}` },
          });
          expect(JSON.parse(answer.body), operationId).toEqual(await direct.json());
        }
        expect(errors).toEqual([]);
        await page.close();
      },
      120_000,
    );
  });
});
