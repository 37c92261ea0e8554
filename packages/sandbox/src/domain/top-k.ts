/**
 * Picks the page `[start, start + size)` of the ascending order of numeric keys without sorting every
 * key: a bounded max-heap keeps the `start + size` smallest keys seen so far (O(n log k)), and only those
 * are sorted. When the page reaches deep into the list, sorting all keys natively is cheaper and is used
 * instead. Keys must be distinct, so that the order, and with it every page, is fully determined.
 */

/** Above this share of the keys a full (native, typed-array) sort beats the heap. */
const FULL_SORT_SHARE = 0.25;

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

/**
 * The keys at positions `start` to `start + size - 1` of `keys` sorted ascending (fewer at the end).
 * `keys` may be reordered.
 *
 * @example
 * selectPage(Float64Array.of(9, 2, 7, 4, 1), 1, 2); // Float64Array [2, 4]
 */
export function selectPage(keys: Float64Array, start: number, size: number): Float64Array {
  const n = keys.length;
  if (start >= n || size <= 0) return new Float64Array(0);
  const k = Math.min(n, start + size);
  if (k >= n * FULL_SORT_SHARE) return keys.sort().subarray(start, k);
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
