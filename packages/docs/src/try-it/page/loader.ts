/// <reference lib="dom" />
/**
 * The Try it loader, inlined by the build before each reference page's `</body>`, right after that
 * page's URLs as JSON (`../page-config.ts`): it keeps the panel out of Redoc's way. The panel's
 * module is prefetched at the first quiet moment after `load`, and the panel starts then when the
 * page shows an operation's samples (the reader landed on one), else at the quiet moment after the
 * reader's first move, so it never competes with Redoc's hydration or with the reader's first click
 * in the menu.
 */
import type { TryItPage } from "../page-config.ts";
import type { TryItConfig } from "./panel.ts";

/** `page-config.ts`'s `TRY_IT_PAGE_ID` (esbuild's `define`: an import would cost the loader bytes). */
declare const TRY_IT_PAGE_ID: string;

/**
 * An idle period at least this long (ms) tells the loader the page is quiet: Chromium grants up to
 * 50 ms when no frame is due and no timer is near, which happens once Redoc has hydrated and has
 * handled what the reader did.
 */
const QUIET_IDLE_MS = 40;
/** The longest the loader waits for a quiet page (ms), on a page that never settles. */
const QUIET_WAIT_MS = 10_000;
/** Where idle periods are not told (no `requestIdleCallback`), the panel starts this long after `load` (ms). */
const FALLBACK_START_MS = 200;
/** What the reader does first on the introduction: a click or a key, or a move to another address. */
const MOVES = ["pointerdown", "keydown", "hashchange", "popstate"] as const;

// The build always writes the configuration before this script, which a module runs after parsing.
const page = JSON.parse(
  (document.getElementById(TRY_IT_PAGE_ID) as HTMLElement).textContent as string,
) as TryItPage;
// Relative URLs are resolved against the page here, where the panel's module can no longer see it.
const resolve = (url: string) => new URL(url, location.href).href;
const panel = resolve(page.panel);
const config: TryItConfig = {
  operations: resolve(page.config.operations),
  worker: resolve(page.config.worker),
};

/** Calls `then` in the first idle period of `QUIET_IDLE_MS` or more, or once `QUIET_WAIT_MS` have passed. */
function whenQuiet(then: () => void): void {
  const since = performance.now();
  const wait = (deadline: IdleDeadline) => {
    if (deadline.timeRemaining() >= QUIET_IDLE_MS || performance.now() - since > QUIET_WAIT_MS) then();
    else requestIdleCallback(wait);
  };
  requestIdleCallback(wait);
}

/** Loads the panel's module (prefetched by then, as a rule) and starts the panel on this page. */
function startPanel(): void {
  void (import(panel) as Promise<typeof import("./panel.ts")>).then((module) => module.start(config));
}

/** The reader's first move on the introduction: the panel starts at the next quiet moment. */
function onFirstMove(): void {
  for (const type of MOVES) removeEventListener(type, onFirstMove, true);
  whenQuiet(startPanel);
}

addEventListener("load", () => {
  if (!("requestIdleCallback" in window)) {
    setTimeout(startPanel, FALLBACK_START_MS);
    return;
  }
  whenQuiet(() => {
    // The module only: the panel fetches its table itself when it starts, and a reader who never
    // opens an operation should not pay for it.
    document.head.append(Object.assign(document.createElement("link"), { rel: "prefetch", href: panel }));
    if (document.querySelector(".panel-request-samples")) startPanel();
    else for (const type of MOVES) addEventListener(type, onFirstMove, true);
  });
});
