/**
 * Redaction of a HAR recording: every access token, client secret, assertion, private key, password,
 * cookie and `Authorization` value is replaced by a marker that says what was there
 * (`[redacted: access token]`), wherever it sits: headers, cookies, query strings, form bodies and
 * JSON bodies. A value found once is then removed from every other string of the recording too, and
 * the result is scanned again before anyone writes it: `assertNoSecrets` throws on anything left.
 *
 * The scheme word of an `Authorization` header (`Bearer`, `OAuth`) is kept: it is not secret, and
 * it is what the drift check's security rule reads.
 */
import { jwtPattern, pemBlockPattern } from "@drill-practice/client/internal";

/** One HAR name/value pair (headers, cookies, query parameters, form parameters). */
export interface HarPair {
  name: string;
  value: string;
  [extra: string]: unknown;
}

interface HarBody {
  mimeType?: string;
  text?: string;
  encoding?: string;
  params?: HarPair[];
  [extra: string]: unknown;
}

/** The parts of a HAR entry that can hold a secret (everything else is kept as it is). */
export interface HarEntry {
  request: {
    url: string;
    headers: HarPair[];
    cookies?: HarPair[];
    queryString?: HarPair[];
    postData?: HarBody;
    [extra: string]: unknown;
  };
  response: {
    headers: HarPair[];
    cookies?: HarPair[];
    content?: HarBody;
    [extra: string]: unknown;
  };
  [extra: string]: unknown;
}

/**
 * A HAR document (version 1.2), as `redocly proxy` and browsers write it.
 */
export interface Har {
  log: { entries: HarEntry[]; [extra: string]: unknown };
  [extra: string]: unknown;
}

/**
 * The marker that replaces a secret.
 */
export function marker(what: string): string {
  return `[redacted: ${what}]`;
}

/** Field names (form fields, query parameters, JSON keys) whose value is a secret, by what it is. */
const SECRET_FIELDS: ReadonlyMap<string, string> = new Map([
  ["accesstoken", "access token"],
  ["refreshtoken", "refresh token"],
  ["idtoken", "ID token"],
  ["token", "token"],
  ["clientsecret", "client secret"],
  ["secret", "secret"],
  ["assertion", "JWT assertion"],
  ["clientassertion", "JWT assertion"],
  ["privatekey", "private key"],
  ["password", "password"],
  ["apikey", "API key"],
]);

/** Headers whose whole value is a credential, besides `Authorization` and cookies. */
const SECRET_HEADER = /^(x-api-key|api-key|x-auth-token|x-access-token|x-client-secret)$/i;

/** JWTs and PEM key blocks are found by the SDK's own patterns (one set for both redactors). */
const JWT = jwtPattern();
const PEM_BLOCK = pemBlockPattern();
/** A value shorter than this is only redacted where it was found, not searched for elsewhere. */
const MIN_KNOWN_LENGTH = 8;

function secretField(name: string): string | undefined {
  return SECRET_FIELDS.get(name.toLowerCase().replace(/[-_]/g, ""));
}

/**
 * The `name=value` parts of a list (a Cookie header, a form), each given to `rewrite` with its name
 * and value as written; parts without `=` are kept as they are.
 */
function rewritePairs(
  text: string,
  separator: string,
  rewrite: (name: string, value: string, part: string) => string,
): string {
  return text
    .split(separator)
    .map((part) => {
      const eq = part.indexOf("=");
      return eq === -1 ? part : rewrite(part.slice(0, eq), part.slice(eq + 1), part);
    })
    .join(separator);
}

/** What was replaced, by marker, for the caller's summary. */
export type RedactionCounts = Map<string, number>;

class Redactor {
  /** Secret values seen, with the marker of what they are; removed from every string in the end. */
  readonly known = new Map<string, string>();
  readonly counts: RedactionCounts = new Map();

  replace(value: string, what: string): string {
    if (value.startsWith("[redacted: ")) return value;
    if (value.length >= MIN_KNOWN_LENGTH && !this.known.has(value)) this.known.set(value, marker(what));
    this.counts.set(what, (this.counts.get(what) ?? 0) + 1);
    return marker(what);
  }

  /** A value under a name that is not secret: still cleared of JWTs and private keys inside it. */
  scan(value: string): string {
    const cleaned = value
      // Public keys and certificates are no secret and stay readable in the recording.
      .replace(PEM_BLOCK, (block, label: string) =>
        label.endsWith("PRIVATE KEY") ? this.replace(block, "private key") : block,
      )
      .replace(JWT, (jwt) => this.replace(jwt, "JWT"));
    return this.everywhere(cleaned);
  }

  authorization(value: string): string {
    const m = /^([A-Za-z][A-Za-z0-9._~+-]*)\s+(\S.*)$/.exec(value.trim());
    if (!m) return this.replace(value, "authorization");
    const scheme = m[1] as string;
    const what = /^(bearer|oauth)$/i.test(scheme) ? "access token" : "credentials";
    return `${scheme} ${this.replace(m[2] as string, what)}`;
  }

  /** `a=1; b=2` (a Cookie header): every value replaced, the names kept. */
  cookieHeader(value: string): string {
    return rewritePairs(value, ";", (name, raw) => `${name}=${this.replace(raw.trim(), "cookie")}`);
  }

  /** `name=value; Path=/; HttpOnly` (a Set-Cookie header): the value replaced, the attributes kept. */
  setCookieHeader(value: string): string {
    const semi = value.indexOf(";");
    const pair = semi === -1 ? value : value.slice(0, semi);
    const eq = pair.indexOf("=");
    if (eq === -1) return this.replace(value, "cookie");
    return `${pair.slice(0, eq)}=${this.replace(pair.slice(eq + 1), "cookie")}${semi === -1 ? "" : value.slice(semi)}`;
  }

  headers(headers: HarPair[]): void {
    for (const header of headers) {
      const name = header.name.toLowerCase();
      if (name === "authorization" || name === "proxy-authorization") {
        header.value = this.authorization(header.value);
      } else if (name === "cookie") {
        header.value = this.cookieHeader(header.value);
      } else if (name === "set-cookie") {
        header.value = this.setCookieHeader(header.value);
      } else if (SECRET_HEADER.test(name)) {
        header.value = this.replace(header.value, `${name} header`);
      } else {
        header.value = this.scan(header.value);
      }
    }
  }

  pairs(pairs: HarPair[] | undefined, cookie = false): void {
    for (const pair of pairs ?? []) {
      const what = cookie ? "cookie" : secretField(pair.name);
      pair.value = what === undefined ? this.scan(pair.value) : this.replace(pair.value, what);
    }
  }

  /**
   * `a=1&b=2` (a query string or a form body): secret fields replaced, every other field kept byte
   * for byte. The marker is written percent-encoded, so the text stays a valid form.
   */
  formText(text: string): string {
    return rewritePairs(text, "&", (rawName, raw, part) => {
      const value = decodeFormPart(raw);
      const what = secretField(decodeFormPart(rawName));
      const cleaned = what === undefined ? this.scan(value) : this.replace(value, what);
      return cleaned === value ? part : `${rawName}=${encodeFormPart(cleaned)}`;
    });
  }

  url(url: string): string {
    const q = url.indexOf("?");
    if (q === -1) return this.scan(url);
    const hash = url.indexOf("#", q);
    const end = hash === -1 ? url.length : hash;
    return `${this.scan(url.slice(0, q))}?${this.formText(url.slice(q + 1, end))}${url.slice(end)}`;
  }

  json(value: unknown): unknown {
    if (typeof value === "string") return this.scan(value);
    if (Array.isArray(value)) return value.map((item) => this.json(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const what = secretField(key);
        if (what === undefined) out[key] = this.json(item);
        else out[key] = this.replace(typeof item === "string" ? item : JSON.stringify(item), what);
      }
      return out;
    }
    return value;
  }

  body(body: HarBody | undefined): void {
    if (body?.text === undefined) {
      this.pairs(body?.params);
      return;
    }
    this.pairs(body.params);
    const mime = (body.mimeType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (body.encoding === "base64") {
      // Binary or unknown text: kept only when nothing secret shows in its decoded bytes.
      const decoded = Buffer.from(body.text, "base64").toString("latin1");
      const cleaned = this.everywhere(this.scan(decoded));
      if (cleaned !== decoded) {
        body.text = marker("body that held a secret");
        delete body.encoding;
        this.counts.set("body that held a secret", (this.counts.get("body that held a secret") ?? 0) + 1);
      }
      return;
    }
    if (mime === "application/x-www-form-urlencoded") {
      body.text = this.formText(body.text);
      return;
    }
    if (mime === "application/json" || mime.endsWith("+json")) {
      try {
        body.text = JSON.stringify(this.json(JSON.parse(body.text)));
        return;
      } catch {
        // Not JSON after all: treated as text below.
      }
    }
    body.text = this.scan(body.text);
  }

  /** Every known secret value, plain or percent-encoded, replaced inside `text`. */
  everywhere(text: string): string {
    let out = text;
    for (const [value, mark] of this.known) {
      for (const form of encodings(value)) if (out.includes(form)) out = out.split(form).join(mark);
    }
    return out;
  }
}

function decodeFormPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, " "));
  } catch {
    return part;
  }
}

function encodeFormPart(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}

/** The ways a value can appear in a recording: as it is, percent-encoded, form-encoded, JSON-escaped. */
function encodings(value: string): string[] {
  return [
    ...new Set([value, encodeURIComponent(value), encodeFormPart(value), JSON.stringify(value).slice(1, -1)]),
  ];
}

/** Applies `fix` to every string inside `value` (objects and arrays are changed in place). */
function eachString(value: unknown, fix: (text: string) => string): unknown {
  if (typeof value === "string") return fix(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = eachString(value[i], fix);
  } else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = eachString(record[key], fix);
  }
  return value;
}

function isHar(value: unknown): value is Har {
  const log = (value as { log?: { entries?: unknown } } | null)?.log;
  return typeof log === "object" && log !== null && Array.isArray(log.entries);
}

/**
 * Redacts a parsed HAR document in place and returns what it replaced, by kind. Throws when the
 * document is not a HAR (no `log.entries`).
 */
export function redactHar(har: unknown): RedactionCounts {
  if (!isHar(har)) throw new Error("not a HAR recording: no log.entries list");
  const redactor = new Redactor();
  for (const { request, response } of har.log.entries) {
    redactor.headers(request.headers ?? []);
    redactor.pairs(request.cookies, true);
    redactor.body(request.postData);
    redactor.headers(response.headers ?? []);
    redactor.pairs(response.cookies, true);
    redactor.body(response.content);
  }
  // Query strings last, once every secret of headers and bodies is known: a value found there is
  // replaced in its decoded form and written back encoded, so the URL stays a URL.
  for (const { request } of har.log.entries) {
    redactor.pairs(request.queryString);
    request.url = redactor.url(request.url);
  }
  // The second net: a value found once (a token in a reply, a secret in a form) anywhere else.
  eachString(har, (text) => redactor.everywhere(text));
  return redactor.counts;
}

/**
 * What secrets `text` (a redacted recording) still shows, or an empty list: a JWT, a PEM private
 * key, an `Authorization`, `Cookie` or secret field value that is not a marker, or any of the
 * `known` values (for example the credentials the recorded client used).
 */
export function secretsLeft(text: string, known: Iterable<string> = []): string[] {
  const left: string[] = [];
  if (JWT.test(text)) left.push("a JWT");
  JWT.lastIndex = 0;
  if (/-----BEGIN[A-Z ]*PRIVATE KEY-----/.test(text)) left.push("a private key");
  let har: unknown;
  try {
    har = JSON.parse(text);
  } catch {
    har = undefined;
  }
  if (isHar(har)) {
    for (const entry of har.log.entries) {
      const headers = [...(entry.request.headers ?? []), ...(entry.response.headers ?? [])];
      for (const { name, value } of headers) {
        const lower = name.toLowerCase();
        const isMarker = (text: string) => /^\[redacted: [^\]]+\]$/.test(text);
        const hidden =
          isMarker(value) || (lower.endsWith("authorization") && isMarker(value.replace(/^\S+\s+/, "")));
        if ((lower.endsWith("authorization") || SECRET_HEADER.test(lower)) && !hidden) {
          left.push(`the ${name} header`);
        }
      }
      const fields = [...(entry.request.queryString ?? []), ...(entry.request.postData?.params ?? [])];
      for (const { name, value } of fields) {
        if (secretField(name) !== undefined && !value.startsWith("[redacted: "))
          left.push(`the field ${name}`);
      }
    }
  }
  for (const value of known) {
    if (value.length > 0 && encodings(value).some((form) => text.includes(form)))
      left.push("a known secret value");
  }
  return [...new Set(left)];
}

/**
 * Throws when `text` still shows a secret (see {@link secretsLeft}); the message names the kinds,
 * never the values.
 */
export function assertNoSecrets(text: string, known: Iterable<string> = []): void {
  const left = secretsLeft(text, known);
  if (left.length > 0) throw new Error(`the redacted recording still shows ${left.join(", ")}`);
}
