/**
 * Growth of the typed arrays the search keeps as scratch space between calls (marks, keys, counts,
 * bits): searches are synchronous, so one array of each serves every call.
 */

/**
 * `array` if it holds `length` entries, else a new (zeroed) array of its kind with a quarter more room.
 */
export function atLeast<T extends { readonly length: number }>(
  array: T,
  length: number,
  make: new (length: number) => T,
): T {
  return array.length < length ? new make(length + (length >> 2)) : array;
}

/**
 * One scratch array of a kind, kept between calls: the function answers it with room for at least
 * `length` entries, grown (and so zeroed) only when it is too short.
 */
export function scratchArray<T extends { readonly length: number }>(
  make: new (length: number) => T,
): (length: number) => T {
  let array = new make(0);
  return (length) => {
    array = atLeast(array, length, make);
    return array;
  };
}
