/**
 * Fault injection for resilience tests: make an operation (the token endpoint included, as
 * `exchangeToken`) fail a number of times with a chosen status, optionally with `Retry-After`, or answer
 * only after a delay.
 */
import { SandboxOptionError } from "../errors.js";

/**
 * One fault rule.
 *
 * @example
 * ```ts
 * import { createSandbox, type FaultRule } from "@drill-practice/sandbox";
 *
 * // The next two token requests get 503 with Retry-After: 1, the third succeeds.
 * const rule: FaultRule = { operationId: "exchangeToken", status: 503, times: 2, retryAfter: 1 };
 * // Every store search answers normally, but only after 300 ms, for the next 5 calls.
 * const slow: FaultRule = { operationId: "searchStore_v2_1", delayMs: 300, times: 5 };
 * const sandbox = await createSandbox({ faults: [rule, slow] });
 * ```
 */
export interface FaultRule {
  /** The operation to affect, or `"*"` for every operation of the description. */
  readonly operationId: string;
  /** Status to fail with (400–599). Without it the request is only delayed, then handled normally. */
  readonly status?: number;
  /** How many matching requests the rule affects before it is used up; default 1. */
  readonly times?: number;
  /** Value of the `Retry-After` header on the failure: seconds, or an HTTP date. */
  readonly retryAfter?: number | string;
  /** Wait this long before answering (failure or normal answer); default 0. */
  readonly delayMs?: number;
}

/**
 * A rule as currently held, with how many uses are left.
 *
 * @example
 * ```ts
 * import { type ActiveFault, createSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * sandbox.injectFault({ operationId: "exchangeToken", status: 503, times: 2 });
 * const faults: ActiveFault[] = sandbox.faults();
 * console.log(faults[0]?.remaining); // 2
 * ```
 */
export interface ActiveFault {
  readonly id: number;
  readonly operationId: string;
  readonly status: number | undefined;
  readonly retryAfter: string | undefined;
  readonly delayMs: number;
  readonly remaining: number;
}

/**
 * Checks a fault rule (from options, a method call or the admin endpoint) and names the first field that
 * breaks a rule.
 */
export function checkFaultRule(rule: unknown, knownOperationIds: ReadonlySet<string>): FaultRule {
  if (typeof rule !== "object" || rule === null || Array.isArray(rule)) {
    throw new SandboxOptionError("fault: must be an object");
  }
  const r = rule as Record<string, unknown>;
  const allowed = new Set(["operationId", "status", "times", "retryAfter", "delayMs"]);
  for (const key of Object.keys(r)) {
    if (!allowed.has(key)) throw new SandboxOptionError(`fault.${key}: unknown field`);
  }
  if (typeof r.operationId !== "string" || (r.operationId !== "*" && !knownOperationIds.has(r.operationId))) {
    throw new SandboxOptionError('fault.operationId: must be an operationId of the description, or "*"');
  }
  const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
  if (r.status !== undefined && !(isInt(r.status) && r.status >= 400 && r.status <= 599)) {
    throw new SandboxOptionError("fault.status: must be an integer from 400 to 599");
  }
  if (r.times !== undefined && !(isInt(r.times) && r.times >= 1)) {
    throw new SandboxOptionError("fault.times: must be a positive integer");
  }
  if (r.delayMs !== undefined && !(isInt(r.delayMs) && r.delayMs >= 0 && r.delayMs <= 600_000)) {
    throw new SandboxOptionError("fault.delayMs: must be an integer from 0 to 600000");
  }
  if (r.retryAfter !== undefined) {
    const ok =
      (isInt(r.retryAfter) && r.retryAfter >= 0) ||
      (typeof r.retryAfter === "string" && !Number.isNaN(Date.parse(r.retryAfter)));
    if (!ok)
      throw new SandboxOptionError(
        "fault.retryAfter: must be a non-negative integer (seconds) or an HTTP date",
      );
    if (r.status === undefined) throw new SandboxOptionError("fault.retryAfter: needs a status to go with");
  }
  if (r.status === undefined && r.delayMs === undefined) {
    throw new SandboxOptionError("fault: give a status, a delayMs or both");
  }
  return r as unknown as FaultRule;
}

/**
 * The fault rules of one sandbox. Rules are used in the order they were added; a request uses at most
 * one rule.
 */
export class FaultInjector {
  #next = 1;
  #rules: {
    id: number;
    operationId: string;
    status?: number;
    retryAfter?: string;
    delayMs: number;
    remaining: number;
  }[] = [];

  /**
   * Adds a checked rule; returns its ID.
   */
  add(rule: FaultRule): number {
    const id = this.#next++;
    this.#rules.push({
      id,
      operationId: rule.operationId,
      ...(rule.status === undefined ? {} : { status: rule.status }),
      ...(rule.retryAfter === undefined ? {} : { retryAfter: String(rule.retryAfter) }),
      delayMs: rule.delayMs ?? 0,
      remaining: rule.times ?? 1,
    });
    return id;
  }

  /**
   * Uses one turn of the first rule matching the operation, if any.
   */
  take(operationId: string): ActiveFault | undefined {
    const index = this.#rules.findIndex((r) => r.operationId === operationId || r.operationId === "*");
    if (index < 0) return undefined;
    const rule = this.#rules[index];
    if (!rule) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules.splice(index, 1);
    return { ...rule, status: rule.status, retryAfter: rule.retryAfter };
  }

  /**
   * Rules still active.
   */
  list(): ActiveFault[] {
    return this.#rules.map((r) => ({ ...r, status: r.status, retryAfter: r.retryAfter }));
  }

  /**
   * Removes every rule.
   */
  clear(): void {
    this.#rules = [];
  }
}
