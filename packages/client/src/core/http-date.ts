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
 * import { parseRetryAfter } from "@drill-practice/client/core";
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
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
const IMF_FIXDATE = new RegExp(`^[a-z]{3}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, "i");
const RFC_850 = new RegExp(`^[a-z]{6,9}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, "i");
const ASCTIME = new RegExp(`^[a-z]{3} ${MONTH} ( \\d|\\d{2}) ${TIME} (\\d{4})$`, "i");

/**
 * Parses an HTTP-date (RFC 9110: IMF-fixdate, the obsolete RFC 850 form or
 * asctime) into epoch milliseconds; `undefined` for anything else. Parsed by
 * hand, because `Date.parse` of non-ISO strings differs between engines.
 * `nowMs` places a two-digit RFC 850 year in its century.
 *
 * @example
 * ```ts
 * import { parseHttpDate } from "@drill-practice/client/core";
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
  const fields = matchHttpDate(value.trim(), nowMs);
  if (!fields) return undefined;
  const [day, month, year, hour, minute, second] = fields;
  const monthIndex = MONTHS.indexOf(month.toLowerCase());
  const at = Date.UTC(year, monthIndex, Number(day), Number(hour), Number(minute), Number(second));
  return Number.isNaN(at) ? undefined : at;
}

type DateFields = [day: string, month: string, year: number, hour: string, minute: string, second: string];

function matchHttpDate(text: string, nowMs: number): DateFields | undefined {
  const imf = IMF_FIXDATE.exec(text);
  if (imf) {
    const [, day = "", month = "", year = "", hour = "", minute = "", second = ""] = imf;
    return [day, month, Number(year), hour, minute, second];
  }
  const rfc850 = RFC_850.exec(text);
  if (rfc850) {
    const [, day = "", month = "", shortYear = "", hour = "", minute = "", second = ""] = rfc850;
    // RFC 9110 §5.6.7: a two-digit year more than 50 years ahead lies in the past century.
    const nowYear = new Date(nowMs).getUTCFullYear();
    let year = Math.floor(nowYear / 100) * 100 + Number(shortYear);
    if (year > nowYear + 50) year -= 100;
    return [day, month, year, hour, minute, second];
  }
  const asctime = ASCTIME.exec(text);
  if (asctime) {
    const [, month = "", day = "", hour = "", minute = "", second = "", year = ""] = asctime;
    return [day.trim(), month, Number(year), hour, minute, second];
  }
  return undefined;
}
