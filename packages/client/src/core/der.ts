/**
 * The one DER reader of the SDK (ITU-T X.690 definite lengths, Web APIs only): auth reads private
 * keys with it and the sandbox public keys, both through `@drill-practice/client/internal`.
 */

/**
 * One DER element: its tag, where it starts, where its value starts and where it ends.
 *
 * @example
 * ```ts
 * import type { DerElement } from "./der.js";
 *
 * const integer: DerElement = { tag: 0x02, start: 0, valueStart: 2, end: 3 };
 * ```
 */
export interface DerElement {
  readonly tag: number;
  readonly start: number;
  readonly valueStart: number;
  readonly end: number;
}

/** What a malformed DER structure throws; its message says what is wrong, to follow "the key …". */
class DerError extends Error {}

/**
 * What is wrong with the DER structure a reader of this module refused, or `undefined` when `error`
 * is not such a refusal (so the caller rethrows it).
 *
 * @example
 * ```ts
 * import { derProblem, readDerElement } from "@drill-practice/client/internal";
 *
 * try {
 *   readDerElement(new Uint8Array([0x30]), 0, 1);
 * } catch (error) {
 *   const problem = derProblem(error);
 *   if (problem === undefined) throw error;
 *   console.log(`the key ${problem}`);
 * }
 * ```
 */
export function derProblem(error: unknown): string | undefined {
  return error instanceof DerError ? error.message : undefined;
}

/**
 * The element at `offset`, which must end by `limit`; throws a {@link DerError} on anything
 * truncated or encoded in a way DER does not allow here.
 *
 * @example
 * ```ts
 * import { readDerElement } from "@drill-practice/client/internal";
 *
 * readDerElement(new Uint8Array([0x02, 0x01, 0x05]), 0, 3); // { tag: 2, start: 0, valueStart: 2, end: 3 }
 * ```
 */
export function readDerElement(der: Uint8Array, offset: number, limit: number): DerElement {
  if (offset + 2 > limit) throw new DerError("ends in the middle of an element");
  const tag = der[offset] as number;
  const first = der[offset + 1] as number;
  let length = first;
  let valueStart = offset + 2;
  if (first & 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new DerError("has an unsupported length encoding");
    if (valueStart + count > limit) throw new DerError("ends in the middle of a length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + (der[valueStart + i] as number);
    valueStart += count;
  }
  const end = valueStart + length;
  if (end > limit) throw new DerError("is shorter than its length fields say (truncated or damaged)");
  return { tag, start: offset, valueStart, end };
}

/**
 * The elements inside a constructed element (a SEQUENCE), in order.
 *
 * @example
 * ```ts
 * import { derChildren, readDerElement } from "@drill-practice/client/internal";
 *
 * const der = new Uint8Array([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x02]);
 * derChildren(der, readDerElement(der, 0, der.length)).length; // 2
 * ```
 */
export function derChildren(der: Uint8Array, parent: DerElement): DerElement[] {
  const out: DerElement[] = [];
  let offset = parent.valueStart;
  while (offset < parent.end) {
    const child = readDerElement(der, offset, parent.end);
    out.push(child);
    offset = child.end;
  }
  return out;
}

/**
 * The dotted form of an OBJECT IDENTIFIER element's value.
 *
 * @example
 * ```ts
 * import { derObjectIdentifier, readDerElement } from "@drill-practice/client/internal";
 *
 * const der = new Uint8Array([0x06, 0x03, 0x2b, 0x65, 0x70]);
 * derObjectIdentifier(der, readDerElement(der, 0, der.length)); // "1.3.101.112"
 * ```
 */
export function derObjectIdentifier(der: Uint8Array, element: DerElement): string {
  const bytes = der.subarray(element.valueStart, element.end);
  const parts: number[] = [];
  let value = 0;
  for (const byte of bytes) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (parts.length === 0) {
        // The first subidentifier packs the first two arcs: 40 * first + second, first <= 2.
        const first = Math.min(Math.floor(value / 40), 2);
        parts.push(first, value - 40 * first);
      } else parts.push(value);
      value = 0;
    }
  }
  return parts.join(".");
}
