/**
 * Picks the page `[start, start + size)` of the ascending order of numeric keys without sorting every
 * key: a bounded max-heap keeps the `start + size` smallest keys seen so far (O(n log k)), and only those
 * are sorted. When the page reaches deep into the list, distinct small integer keys (a store search's
 * keys are positions in name order, at most a few times the number of matches) go into a bit set that
 * is read in order instead, and other keys are sorted natively.
 */
/** Above this share of the keys the heap no longer pays. */
const FULL_SORT_SHARE = 0.25;
/** A bit set over the key range pays while the range is at most this many times the number of keys. */
const BITSET_RANGE = 64;

function siftDown(heap: Float64Array, size: number, from: number): void {
  let at = from;
  const value = heap[at] as number;
  for (;;) {
    const left = 2 * at + 1;
    if (left >= size) break;
    const right = left + 1;
    const larger = right < size && (heap[right] as number) > (heap[left] as number) ? right : left;
    if ((heap[larger] as number) <= value) break;
    heap[at] = heap[larger] as number;
    at = larger;
  }
  heap[at] = value;
}

/** The largest key if every key is an integer in `[0, 2^31)`, else -1. */
function bitsetMax(keys: Float64Array): number {
  let max = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    if ((key | 0) !== key || key < 0) return -1;
    if (key > max) max = key;
  }
  return max;
}

function popcount(word: number): number {
  let x = word - ((word >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The page `[start, k)` of the sorted keys from a bit set over `[0, max]`: whole words are skipped by
 * their bit counts up to `start`, then the page's bits are read in order. Undefined if a key repeats
 * (a bit set cannot count it twice), for the caller to sort instead.
 */
function bitsetPage(keys: Float64Array, max: number, start: number, k: number): Float64Array | undefined {
  const words = (max >>> 5) + 1;
  const bits = new Int32Array(words);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as number;
    const mask = 1 << (key & 31);
    const at = key >>> 5;
    if (((bits[at] as number) & mask) !== 0) return undefined;
    bits[at] = (bits[at] as number) | mask;
  }
  const page = new Float64Array(k - start);
  let word = 0;
  let before = 0;
  // Whole words before the page are skipped by their bit counts.
  let count = popcount(bits[0] as number);
  while (before + count <= start) {
    before += count;
    word++;
    count = popcount(bits[word] as number);
  }
  let filled = 0;
  for (; filled < page.length; word++) {
    for (let rest = bits[word] as number; rest !== 0 && filled < page.length; rest &= rest - 1) {
      if (before++ >= start) page[filled++] = word * 32 + 31 - Math.clz32(rest & -rest);
    }
  }
  return page;
}

/**
 * The keys at positions `start` to `start + size - 1` of `keys` sorted ascending (fewer at the end).
 * `keys` may be reordered.
 */
export function selectPage(keys: Float64Array, start: number, size: number): Float64Array {
  const n = keys.length;
  if (start >= n || size <= 0) return new Float64Array(0);
  const k = Math.min(n, start + size);
  if (k >= n * FULL_SORT_SHARE) {
    const max = bitsetMax(keys);
    const page = max >= 0 && max <= n * BITSET_RANGE ? bitsetPage(keys, max, start, k) : undefined;
    return page ?? keys.sort().subarray(start, k);
  }
  const heap = keys.slice(0, k);
  for (let i = (k >> 1) - 1; i >= 0; i--) siftDown(heap, k, i);
  for (let i = k; i < n; i++) {
    const key = keys[i] as number;
    if (key < (heap[0] as number)) {
      heap[0] = key;
      siftDown(heap, k, 0);
    }
  }
  return heap.sort().subarray(start, k);
}
