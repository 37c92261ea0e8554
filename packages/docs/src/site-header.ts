import { API_VERSIONS } from "@drill-practice/tooling/api-versions";

/** An API version with its own reference page. */
export interface ApiVersion {
  /** Version label as readers know it, e.g. `"2.1"`. */
  id: string;
  /** Directory of its reference inside the site, e.g. `"v2.1"`. */
  dir: string;
  /** Path prefix of its operations, e.g. `"/api/2.1/"`. */
  prefix: string;
  /** Bundle file name as written by `@drill-practice/spec`. */
  bundle: string;
}

/**
 * The versions the site documents, newest first (the order of the version switch): the one the
 * service answers today (2.1.1) leads, and is the default of the header and the landing page.
 */
export const apiVersions: readonly ApiVersion[] = API_VERSIONS.map((version) => ({
  id: version.id,
  dir: `v${version.id}`,
  prefix: version.prefix,
  bundle: version.bundle,
}));

/** Which page the header is rendered for. */
export type HeaderPage = { kind: "guide"; file: string } | { kind: "reference"; version: string };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Renders the header bar shared by every page: the site name, the guides and the version
 * switch. Links are relative so the site works from any base path and from `file://`.
 */
export function renderSiteHeader(page: HeaderPage, rootPrefix: string): string {
  const link = (href: string, label: string, current: boolean, extra = "") =>
    `<a href="${escapeHtml(rootPrefix + href)}"${current ? ' aria-current="page"' : ""}${extra}>${escapeHtml(label)}</a>`;
  const guides = [
    { file: "index.html", label: "Overview" },
    { file: "authentication.html", label: "Authentication" },
    { file: "errors.html", label: "Errors" },
    { file: "versioning.html", label: "Versions" },
    { file: "changes.html", label: "Changes" },
  ]
    .map((guide) => link(guide.file, guide.label, page.kind === "guide" && page.file === guide.file))
    .join("");
  const versions = apiVersions
    .map((version) =>
      link(
        `${version.dir}/index.html`,
        version.id,
        page.kind === "reference" && page.version === version.id,
        ` data-version="${escapeHtml(version.id)}" title="API ${escapeHtml(version.id)} reference"`,
      ),
    )
    .join("");
  return [
    '<header class="site-header">',
    `<a class="site-brand" href="${escapeHtml(rootPrefix)}index.html">`,
    `<img src="${escapeHtml(rootPrefix)}favicon.svg" alt="" width="24" height="24">`,
    "<span>Drill Practice API</span></a>",
    `<nav class="site-nav" aria-label="Guides">${guides}</nav>`,
    '<nav class="version-switch" aria-label="API version">',
    '<span class="version-switch-label">API reference</span>',
    versions,
    "</nav>",
    page.kind === "guide" ? colorModeToggle : "",
    "</header>",
  ].join("");
}

/**
 * Sets `dark` or `light` on `<html>` before the page paints: the reader's stored choice, shared
 * with Redoc's own switch (same storage key), else the system preference.
 */
export const colorModeHead =
  "<script>(function(){var k='redoc.colorMode',m;try{m=localStorage.getItem(k)}catch(e){}" +
  "if(m!=='dark'&&m!=='light')m=window.matchMedia('(prefers-color-scheme: dark)').matches?'dark':'light';" +
  "document.documentElement.classList.add(m)})();</script>";

/** The guides' dark-mode switch; the references use Redoc's. */
export const colorModeToggle =
  '<button type="button" class="color-mode-toggle" id="color-mode-toggle" aria-pressed="false">Dark mode</button>' +
  "<script>(function(){var b=document.getElementById('color-mode-toggle'),r=document.documentElement;" +
  "function show(){b.setAttribute('aria-pressed',String(r.classList.contains('dark')))}show();" +
  "b.addEventListener('click',function(){var d=!r.classList.contains('dark');r.classList.toggle('dark',d);" +
  "r.classList.toggle('light',!d);try{localStorage.setItem('redoc.colorMode',d?'dark':'light')}catch(e){}show()})})();</script>";
