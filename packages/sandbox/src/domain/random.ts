/**
 * Seeded pseudo-random numbers. The sandbox never uses `Math.random`: the same seed must give the same
 * dataset and the same question sequence on every run and every machine.
 */

/**
 * 32-bit FNV-1a hash of a string, for turning names into seeds.
 */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A small, fast generator (mulberry32) whose whole state is one 32-bit integer, so a session can store
 * and resume it.
 */
export class Prng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /**
   * Next float in [0, 1).
   */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /**
   * Next integer in [0, bound).
   */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /**
   * One element of a non-empty array.
   */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick: the array is empty");
    return items[this.int(items.length)] as T;
  }

  /**
   * Shuffles an array in place (Fisher–Yates) and returns it.
   */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const tmp = items[i] as T;
      items[i] = items[j] as T;
      items[j] = tmp;
    }
    return items;
  }

  /**
   * `count` distinct elements in random order (all of them when there are fewer).
   */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = items.slice();
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + this.int(copy.length - i);
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }
}
