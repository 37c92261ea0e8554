/**
 * `pnpm run support:counts`: prints, per version, how many operations the sandbox simulates with
 * state, answers with a static example, and answers 501 (the README's counts table, as text).
 */
import { bundledSpec } from "../src/http/bundled-spec.js";
import { supportCounts } from "./readme-tables.js";

const rows = supportCounts(bundledSpec());
const width = Math.max(...rows.map((r) => r.version.length));
console.log(`${"version".padEnd(width)}  state  example  501`);
for (const r of rows) {
  console.log(
    `${r.version.padEnd(width)}  ${String(r.simulated).padStart(5)}  ${String(r.example).padStart(7)}  ${String(r.notSimulated).padStart(3)}`,
  );
}
const total = rows.reduce(
  (sum, r) => ({ s: sum.s + r.simulated, e: sum.e + r.example, n: sum.n + r.notSimulated }),
  {
    s: 0,
    e: 0,
    n: 0,
  },
);
console.log(
  `${"all".padEnd(width)}  ${String(total.s).padStart(5)}  ${String(total.e).padStart(7)}  ${String(total.n).padStart(3)}`,
);
