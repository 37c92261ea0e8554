/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The Try it panel: the site's own script, loaded once the reference is usable. It puts a collapsed
 * "Try it" panel under each operation's samples as Redoc shows them (Redoc's markup is left alone),
 * builds the form from the build's table of operations, and sends to the in-page sandbox (a worker
 * started on the first Send) or to the reader's own server.
 */
import { classify } from "../classify.ts";
import type { ExchangeSteps, TryItAnswer, TryItOperation } from "../protocol.ts";
import { type Built, buildRequest, fieldKey, prefilledValues } from "../request.ts";
import { BlockedError, ownServer, sendToServer } from "./own-server.ts";
import { PANEL_CSS } from "./panel-style.ts";
import { resetSandbox, type SandboxAnswer, sandboxStarted, sendToSandbox } from "./sandbox-link.ts";

/** Where the build put this reference's table and the worker. */
export interface TryItConfig {
  operations: string;
  worker: string;
}

const ANSWER_HEADERS = [
  "content-type",
  "www-authenticate",
  "retry-after",
  "location",
  "cache-control",
  "drill-sandbox-example",
];

let table: Promise<Map<string, TryItOperation>> | undefined;
let config: TryItConfig;

function operations(): Promise<Map<string, TryItOperation>> {
  table ??= fetch(config.operations)
    .then((response) => {
      if (!response.ok) throw new Error(`the operations table answered ${response.status}`);
      return response.json() as Promise<TryItOperation[]>;
    })
    .then((list) => new Map(list.map((operation) => [operation.operationId.toLowerCase(), operation])));
  return table;
}

/**
 * Values only an earlier answer gives (a question's `reference`), from the last sandbox answer that
 * held one: a field the samples leave to the reader is filled from it on Send.
 */
const remembered = new Map<string, string>();

function rememberValues(body: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return;
  }
  const visit = (value: unknown, depth: number): void => {
    if (depth > 3 || typeof value !== "object" || value === null) return;
    for (const [name, inner] of Object.entries(value)) {
      if (name === "reference" && typeof inner === "string") remembered.set(name, inner);
      else visit(inner, depth + 1);
    }
  };
  visit(parsed, 0);
}

// ---------- the panel ----------

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

let panels = 0;
/** Numbers each answer shown, so a reader's tools (and the tests) tell a new answer from the last. */
let answers = 0;

/**
 * What the sandbox does for an operation: a short label, and the sentence that says how. A simulated
 * operation's sentence is the one its page already shows in the "In the sandbox" note (marked by the
 * build), copied from the section rather than shipped a second time in the table.
 */
function faithfulnessOf(operation: TryItOperation, section: Element): { label: string; text: Node[] } {
  if (operation.faithfulness === "simulated") {
    const said = section.querySelector(".dp-sandbox-behaviour");
    const text = said ? [...said.childNodes].map((node) => node.cloneNode(true)) : [];
    return {
      label: "Simulated",
      text: text.length > 0 ? text : [document.createTextNode("answered from the sandbox's state")],
    };
  }
  const text =
    operation.faithfulness === "example"
      ? "the sandbox answers the reference page's example, whatever you send"
      : "the interface does not show how the service answers, so the sandbox says so (501)";
  return {
    label: operation.faithfulness === "example" ? "Example" : "Not simulated",
    text: [document.createTextNode(text)],
  };
}

/**
 * A verdict marks identifiers with backticks, Markdown's code spans: shown as code, not as backticks.
 * Text with an unpaired backtick is shown as it is.
 */
function withCodeSpans(text: string): (Node | string)[] {
  const parts = text.split("`");
  if (parts.length % 2 === 0) return [text];
  return parts.map((part, index) => (index % 2 === 1 ? element("code", {}, part) : part));
}

function fieldInput(
  operation: TryItOperation,
  field: TryItOperation["fields"][number],
  value: string,
  id: string,
): HTMLElement {
  if (field.choices) {
    const select = element("select", { id, name: field.name });
    if (!field.required) select.append(element("option", { value: "" }, "(none)"));
    for (const choice of field.choices) {
      const option = element("option", { value: choice }, choice);
      if (choice === value) option.selected = true;
      select.append(option);
    }
    return select;
  }
  const input = element("input", {
    id,
    name: field.name,
    type: "text",
    autocomplete: "off",
    spellcheck: "false",
  });
  input.value = value;
  if (field.hint) input.placeholder = field.hint;
  if (operation.body === "token" && field.in === "form" && value === "")
    input.placeholder = "from the sandbox's credentials when empty";
  return input;
}

function renderForm(
  operation: TryItOperation,
  form: HTMLFormElement,
  prefix: string,
): () => Map<string, string[]> {
  const values = prefilledValues(operation);
  const list = element("div", { class: "dp-tryit-fields" });
  for (const field of operation.fields) {
    const key = fieldKey(field);
    const group = element("div", { class: "dp-tryit-field" });
    const id = `${prefix}-${field.in}-${field.name}`;
    const where = field.in === "form" ? "form field" : `${field.in} parameter`;
    const label = element("label", { for: `${id}-0` }, element("code", {}, field.name), ` ${where}`);
    if (field.required) label.append(element("span", { class: "dp-tryit-required" }, " (required)"));
    group.append(label);
    const inputs = element("div", { class: "dp-tryit-inputs" });
    const add = (value: string) => {
      const index = inputs.children.length;
      const input = fieldInput(operation, field, value, `${id}-${index}`);
      if (index > 0) input.setAttribute("aria-label", `${field.name}, value ${index + 1}`);
      input.dataset.key = key;
      inputs.append(input);
      return input;
    };
    for (const value of values.get(key) ?? [""]) add(value);
    group.append(inputs);
    if (field.repeated) {
      const more = element("button", { type: "button", class: "dp-tryit-add" }, `Add another ${field.name}`);
      more.addEventListener("click", () => add("").focus());
      group.append(more);
    }
    list.append(group);
  }
  form.append(list);
  return () => {
    const read = new Map<string, string[]>();
    for (const input of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-key]")) {
      const key = input.dataset.key as string;
      read.set(key, [...(read.get(key) ?? []), input.value]);
    }
    return read;
  };
}

function renderSteps(steps: ExchangeSteps): HTMLElement {
  const { assertion, exchange, token } = steps;
  return element(
    "details",
    { class: "dp-tryit-steps" },
    element(
      "summary",
      {},
      `Token: assertion signed → exchanged (${exchange.status}) → bearer token, ${token.expiresIn} s`,
    ),
    element(
      "ol",
      {},
      element(
        "li",
        {},
        "Assertion (RS256, the sandbox's generated key): ",
        element(
          "pre",
          { tabindex: "0" },
          JSON.stringify({ header: assertion.header, claims: assertion.claims }, null, 2),
        ),
      ),
      element(
        "li",
        {},
        `Exchange: POST ${exchange.endpoint} with grant_type, assertion, client_id and client_secret (the sandbox's generated client) → ${exchange.status}`,
      ),
      element(
        "li",
        {},
        `Bearer token: ${token.type}, ${token.preview}, sent as Authorization: Bearer on every request`,
      ),
    ),
  );
}

async function copyText(text: string, status: HTMLElement, what: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = `${what} copied.`;
  } catch {
    status.textContent = `The browser refused the clipboard; the ${what} is shown below to select and copy.`;
  }
}

function renderAnswer(
  operation: TryItOperation,
  built: Extract<Built, { ok: true }>,
  answer: TryItAnswer,
  source: "sandbox" | "server",
  elapsedMs: number,
  status: HTMLElement,
): HTMLElement {
  const verdict = classify(operation, answer, source);
  const box = element("div", {
    class: "dp-tryit-answer",
    "data-verdict": verdict.kind,
    "data-status": String(answer.status),
    "data-sent": String(++answers),
  });
  box.append(
    element(
      "p",
      { class: "dp-tryit-status" },
      element("strong", {}, `${answer.status}`),
      ` · ${Math.round(elapsedMs)} ms · ${source === "sandbox" ? "local sandbox" : "your server"}`,
    ),
    element("p", { class: "dp-tryit-verdict" }, ...withCodeSpans(verdict.text)),
  );
  const shown = answer.headers.filter(([name]) => ANSWER_HEADERS.includes(name.toLowerCase()));
  if (shown.length > 0) {
    const list = element("dl", { class: "dp-tryit-headers" });
    for (const [name, value] of shown) list.append(element("dt", {}, name), element("dd", {}, value));
    box.append(list);
  }
  let pretty = answer.body;
  try {
    pretty = JSON.stringify(JSON.parse(answer.body), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  box.append(
    element(
      "pre",
      { class: "dp-tryit-body", tabindex: "0", "aria-label": "Answer body" },
      pretty === "" ? "(empty body)" : pretty,
    ),
  );
  box.append(copyButtons(built, source, status));
  return box;
}

function copyButtons(
  built: Extract<Built, { ok: true }>,
  source: "sandbox" | "server",
  status: HTMLElement,
): HTMLElement {
  const row = element("div", { class: "dp-tryit-copy" });
  const shown = element("pre", { class: "dp-tryit-copied", tabindex: "0", hidden: "" });
  for (const language of ["curl", "TypeScript"] as const) {
    const button = element("button", { type: "button" }, `Copy as ${language}`);
    button.addEventListener("click", async () => {
      const text = await sampleText(built, language, source);
      shown.textContent = text;
      shown.hidden = false;
      shown.dataset.language = language;
      await copyText(text, status, `${language} command`);
    });
    row.append(button);
  }
  const wrap = element("div", {}, row, shown);
  return wrap;
}

/** The page's own sample code, for the request as sent (loaded on first use). */
async function sampleText(
  built: Extract<Built, { ok: true }>,
  language: "curl" | "TypeScript",
  source: "sandbox" | "server",
): Promise<string> {
  const { curlSample, typescriptSample } = await import("../../code-samples.ts");
  // To the reader's server, the samples send where the panel did; to the sandbox, to its default address.
  const base = source === "server" ? ownServer.baseUrl.replace(/\/+$/, "") : undefined;
  return language === "curl" ? curlSample(built.sample, base) : typescriptSample(built.sample, base);
}

/** The panel's frame: a Try it toggle that opens and closes its body. */
function panelFrame(
  operation: TryItOperation,
  section: Element,
  prefix: string,
): { root: HTMLElement; body: HTMLElement } {
  const title = `${operation.method.toUpperCase()} ${operation.path}`;
  const root = element("section", {
    class: "dp-tryit",
    "aria-label": `Try it: ${title}`,
    "data-operation": operation.operationId,
  });
  const toggle = element(
    "button",
    { type: "button", class: "dp-tryit-toggle", "aria-expanded": "false", "aria-controls": `${prefix}-body` },
    "Try it",
  );
  const body = element("div", { id: `${prefix}-body`, class: "dp-tryit-body", hidden: "" });
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    body.hidden = !open;
  });
  root.append(toggle, body);
  const { label, text } = faithfulnessOf(operation, section);
  body.append(
    element(
      "p",
      { class: "dp-tryit-source" },
      "Answers from the sandbox running in this page, not the real service.",
    ),
    element("p", { class: "dp-tryit-behaviour" }, element("strong", {}, `${label}:`), " ", ...text, "."),
  );
  return { root, body };
}

/** The "Send to" choice: the in-page sandbox, or the reader's own server with its base URL and token. */
function targetChoice(prefix: string): { fieldset: HTMLElement; source(): "sandbox" | "server" } {
  const target = element("fieldset", { class: "dp-tryit-target" }, element("legend", {}, "Send to"));
  const radio = (value: string, text: string, checked: boolean) => {
    const input = element("input", {
      type: "radio",
      name: `${prefix}-target`,
      value,
      id: `${prefix}-target-${value}`,
    });
    input.checked = checked;
    return element("label", { for: input.id }, input, ` ${text}`);
  };
  target.append(radio("sandbox", "Sandbox in this page", true), radio("server", "Your own server", false));
  const server = element("div", { class: "dp-tryit-server", hidden: "" });
  // Each field reads and writes `ownServer`, so what a reader typed is there in every panel of the page.
  const ownServerField = (key: keyof typeof ownServer, id: string, type: string, extra = {}) => {
    const input = element("input", { id, type, autocomplete: "off", ...extra, spellcheck: "false" });
    input.value = ownServer[key];
    input.addEventListener("input", () => {
      ownServer[key] = input.value.trim();
    });
    return input;
  };
  const baseUrl = ownServerField("baseUrl", `${prefix}-base`, "url", {
    placeholder: "https://drill.example",
  });
  const token = ownServerField("token", `${prefix}-token`, "password");
  server.append(
    element("label", { for: baseUrl.id }, "Base URL"),
    baseUrl,
    element("label", { for: token.id }, "Bearer token (kept in this page's memory only)"),
    token,
  );
  target.append(server);
  const source = () =>
    (target.querySelector("input:checked") as HTMLInputElement).value === "server" ? "server" : "sandbox";
  target.addEventListener("change", () => {
    server.hidden = source() !== "server";
  });
  return { fieldset: target, source };
}

/** The parts of a panel a Send reads and writes. */
interface PanelParts {
  readonly operation: TryItOperation;
  readonly form: HTMLFormElement;
  readonly readValues: () => Map<string, string[]>;
  readonly json: HTMLTextAreaElement | undefined;
  readonly send: HTMLButtonElement;
  readonly status: HTMLElement;
  readonly output: HTMLElement;
  readonly source: () => "sandbox" | "server";
}

/** The nodes that show an answer: the exchange's steps, a replay note, then the answer itself. */
function answerParts(
  parts: PanelParts,
  built: Extract<Built, { ok: true }>,
  answer: TryItAnswer,
  source: "sandbox" | "server",
  elapsed: number,
): HTMLElement[] {
  const shown: HTMLElement[] = [];
  const extra = answer as SandboxAnswer;
  if (extra.steps) shown.push(renderSteps(extra.steps));
  if (answer.exchange) shown.push(renderSteps(answer.exchange));
  if (extra.replayed)
    shown.push(
      element(
        "p",
        { class: "dp-tryit-note" },
        `Restored ${extra.replayed} earlier change${extra.replayed === 1 ? "" : "s"} of this session (use Reset sandbox to start over).`,
      ),
    );
  shown.push(renderAnswer(parts.operation, built, answer, source, elapsed, parts.status));
  return shown;
}

/** One Send: fills hinted fields from earlier answers, builds the request, sends it and shows the answer. */
async function sendFromPanel(parts: PanelParts): Promise<void> {
  const { operation, form, status, output, send } = parts;
  for (const field of operation.fields) {
    const input = form.querySelector<HTMLInputElement>(`[data-key="${fieldKey(field)}"]`);
    const earlier = remembered.get(field.name);
    if (field.hint && input && input.value.trim() === "" && earlier) input.value = earlier;
  }
  const built = buildRequest(operation, parts.readValues(), parts.json?.value);
  if (!built.ok) {
    output.replaceChildren(
      element("ul", { class: "dp-tryit-problems" }, ...built.problems.map((p) => element("li", {}, p))),
    );
    status.textContent = `Not sent: ${built.problems.length} field${built.problems.length === 1 ? "" : "s"} to fix.`;
    return;
  }
  const source = parts.source();
  const first = source === "sandbox" && !sandboxStarted();
  send.disabled = true;
  status.textContent = first ? "Starting the sandbox in this page…" : "Sending…";
  const started = performance.now();
  try {
    const answer =
      source === "sandbox"
        ? await sendToSandbox(config.worker, built.request)
        : await sendToServer(built.request);
    const elapsed = performance.now() - started;
    if (source === "sandbox") rememberValues(answer.body);
    output.replaceChildren(...answerParts(parts, built, answer, source, elapsed));
    status.textContent = `Answered ${answer.status}.`;
    performance.measure(`try-it ${first ? "first answer shown" : "answer shown"}`, { start: started });
  } catch (error) {
    output.replaceChildren(element("p", { class: "dp-tryit-problem" }, (error as Error).message));
    if (error instanceof BlockedError)
      output.append(element("p", {}, "Send it from a terminal instead:"), copyButtons(built, source, status));
    status.textContent = "Not answered.";
  } finally {
    send.disabled = false;
  }
}

function buildPanel(operation: TryItOperation, section: Element): HTMLElement {
  const prefix = `dp-tryit-${++panels}`;
  const { root, body } = panelFrame(operation, section, prefix);
  const { fieldset, source } = targetChoice(prefix);
  body.append(fieldset);

  const form = element("form", { class: "dp-tryit-form", novalidate: "" });
  const readValues = renderForm(operation, form, prefix);
  let json: HTMLTextAreaElement | undefined;
  if (typeof operation.body === "object" && "json" in operation.body) {
    json = element("textarea", { id: `${prefix}-json`, rows: "6", spellcheck: "false" });
    json.value = operation.body.json;
    form.append(element("label", { for: json.id }, "Request body (JSON)"), json);
  }
  if (typeof operation.body === "object" && "notShown" in operation.body) {
    form.append(element("p", { class: "dp-tryit-note" }, operation.body.notShown));
  }
  const send = element("button", { type: "submit", class: "dp-tryit-send" }, "Send");
  const reset = element("button", { type: "button", class: "dp-tryit-reset" }, "Reset sandbox");
  form.append(element("div", { class: "dp-tryit-actions" }, send, reset));
  const status = element("p", { class: "dp-tryit-live", role: "status", "aria-live": "polite" });
  const output = element("div", { class: "dp-tryit-output" });
  body.append(form, status, output);

  reset.addEventListener("click", () => {
    resetSandbox();
    output.replaceChildren();
    status.textContent = "The sandbox was reset: the next Send starts a fresh one with the built-in data.";
  });
  const parts: PanelParts = { operation, form, readValues, json, send, status, output, source };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    await sendFromPanel(parts);
  });
  return root;
}

/** Adds a panel below the samples of every operation Redoc shows, now and as the reader moves on. */
async function attach(): Promise<void> {
  const sections = document.querySelectorAll<HTMLElement>("[data-section-id]");
  const byId = await operations();
  for (const section of sections) {
    const samples = section.querySelector<HTMLElement>(".panel-request-samples");
    if (!samples || samples.parentElement?.querySelector(":scope > .dp-tryit")) continue;
    const slug = section.dataset.sectionId?.split("/").pop() ?? "";
    const operation = byId.get(slug);
    if (operation) samples.after(buildPanel(operation, section));
  }
}

/**
 * Starts the panel on this reference.
 */
export function start(given: TryItConfig): void {
  config = given;
  document.head.append(element("style", {}, PANEL_CSS));
  let scheduled = false;
  const run = () => {
    scheduled = false;
    attach().catch((error: Error) => console.warn(`Try it: ${error.message}`));
  };
  new MutationObserver(() => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(run);
  }).observe(document.getElementById("redoc") ?? document.body, { childList: true, subtree: true });
  run();
}
