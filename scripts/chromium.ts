/** Kept for bench/docs-pages.ts, which the bench rewrite moves to `@drill-practice/tooling/chromium`. */
export { CHROMIUM_FLAGS, chromiumPath } from "@drill-practice/tooling/chromium";
