/**
 * HTTP dates and `Retry-After`, shared by the client's retries and by
 * `@drill-practice/auth` (token endpoint retries and server clock offset).
 */

/**
 * Reads a `Retry-After` value (RFC 9110: delay in seconds or an HTTP-date in
 * any of its three formats) as milliseconds to wait. An HTTP-date is measured
 * against the response's `Date` header when it has a valid one (both stamps
 * then come from the server's clock, so a skewed local clock does not matter),
 * else against `nowMs`. Returns `undefined` for a missing or unusable value; a
 * date in the past means no wait.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "@drill-practice/client/internal";
 *
 * parseRetryAfter("120", Date.now()); // 120000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.UTC(2015, 9, 21, 7, 27, 0)); // 60000
 * parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT", Date.now(), "Wed, 21 Oct 2015 07:27:30 GMT"); // 30000
 * ```
 */
export function parseRetryAfter(
  value: string | null,
  nowMs: number,
  dateHeader?: string | null,
): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = parseHttpDate(trimmed, nowMs);
  if (at === undefined) return undefined;
  const serverNow = parseHttpDate(dateHeader, nowMs);
  return Math.max(0, at - (serverNow ?? nowMs));
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
// Named groups, so that one reading serves all three forms.
const MONTH = `(?<month>${MONTHS.join("|")})`;
const DAY = "(?<day>\\d{2})";
const TIME = "(?<hour>\\d{2}):(?<minute>\\d{2}):(?<second>\\d{2})";
const IMF_FIXDATE = new RegExp(`^[a-z]{3}, ${DAY} ${MONTH} (?<year>\\d{4}) ${TIME} GMT$`, "i");
const RFC_850 = new RegExp(`^[a-z]{6,9}, ${DAY}-${MONTH}-(?<year>\\d{2}) ${TIME} GMT$`, "i");
const ASCTIME = new RegExp(`^[a-z]{3} ${MONTH} (?<day> \\d|\\d{2}) ${TIME} (?<year>\\d{4})$`, "i");
// Every group of the three patterns is mandatory, so a match has all six.
type DateFields = Record<"day" | "month" | "year" | "hour" | "minute" | "second", string>;

/**
 * Parses an HTTP-date (RFC 9110: IMF-fixdate, the obsolete RFC 850 form or
 * asctime) into epoch milliseconds; `undefined` for anything else. Parsed by
 * hand, because `Date.parse` of non-ISO strings differs between engines.
 * `nowMs` places a two-digit RFC 850 year in its century.
 *
 * @example
 * ```ts
 * import { parseHttpDate } from "@drill-practice/client/internal";
 *
 * parseHttpDate("Sun, 06 Nov 1994 08:49:37 GMT"); // 784111777000
 * parseHttpDate("soon"); // undefined
 * ```
 */
export function parseHttpDate(
  value: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  const fields = (IMF_FIXDATE.exec(text) ?? RFC_850.exec(text) ?? ASCTIME.exec(text))?.groups as
    | DateFields
    | undefined;
  if (!fields) return undefined;
  const { day, month, year, hour, minute, second } = fields;
  let fullYear = Number(year);
  if (year.length === 2) {
    // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead lies in the past century.
    const nowYear = new Date(nowMs).getUTCFullYear();
    fullYear += Math.floor(nowYear / 100) * 100;
    if (fullYear > nowYear + 50) fullYear -= 100;
  }
  const at = Date.UTC(
    fullYear,
    MONTHS.indexOf(month.toLowerCase()),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second),
  );
  return Number.isNaN(at) ? undefined : at;
}
