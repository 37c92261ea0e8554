/**
 * Records with relations, the sandbox's small stand-in for database tables: a {@link Table} holds the
 * records of one kind by ID, a {@link Relation} links two kinds with a value per link (a join table).
 * Every method is synchronous, so a handler's reads and writes are atomic under the event loop.
 */

/** Records of one kind by ID, in insertion order (the order lists show when nothing else sorts them). */
export class Table<R extends { readonly id: string }> {
  readonly #rows = new Map<string, R>();

  get(id: string): R | undefined {
    return this.#rows.get(id);
  }

  has(id: string): boolean {
    return this.#rows.has(id);
  }

  /** Adds or replaces a record. */
  put(record: R): R {
    this.#rows.set(record.id, record);
    return record;
  }

  /** Changes some fields of an existing record; `undefined` when there is none with that ID. */
  update(id: string, change: Partial<Omit<R, "id">>): R | undefined {
    const current = this.#rows.get(id);
    if (current === undefined) return undefined;
    const next = { ...current, ...change } as R;
    this.#rows.set(id, next);
    return next;
  }

  delete(id: string): boolean {
    return this.#rows.delete(id);
  }

  all(): R[] {
    return [...this.#rows.values()];
  }

  /** The records in insertion order without copying them into a list (for scans on the hot path). */
  values(): IterableIterator<R> {
    return this.#rows.values();
  }

  get size(): number {
    return this.#rows.size;
  }

  /** A new ID `<prefix>-<n>` that no record has, `n` counting up from the table's size. */
  newId(prefix: string): string {
    let n = this.#rows.size + 1;
    while (this.#rows.has(`${prefix}-${n}`)) n++;
    return `${prefix}-${n}`;
  }
}

/** Links from one kind of record (left) to another (right), one value per link, indexed both ways. */
export class Relation<V> {
  readonly #byLeft = new Map<string, Map<string, V>>();
  readonly #byRight = new Map<string, Map<string, V>>();

  get(left: string, right: string): V | undefined {
    return this.#byLeft.get(left)?.get(right);
  }

  set(left: string, right: string, value: V): void {
    const rights = this.#byLeft.get(left) ?? new Map<string, V>();
    this.#byLeft.set(left, rights.set(right, value));
    const lefts = this.#byRight.get(right) ?? new Map<string, V>();
    this.#byRight.set(right, lefts.set(left, value));
  }

  delete(left: string, right: string): boolean {
    const removed = this.#byLeft.get(left)?.delete(right) ?? false;
    this.#byRight.get(right)?.delete(left);
    return removed;
  }

  /** The right-hand records linked to `left`, with their values, in the order they were linked. */
  rightsOf(left: string): [string, V][] {
    return [...(this.#byLeft.get(left) ?? [])];
  }

  /** The left-hand records linked to `right`, with their values. */
  leftsOf(right: string): [string, V][] {
    return [...(this.#byRight.get(right) ?? [])];
  }

  /** Removes every link of a left-hand record (it was deleted). */
  deleteLeft(left: string): void {
    for (const right of this.#byLeft.get(left)?.keys() ?? []) this.#byRight.get(right)?.delete(left);
    this.#byLeft.delete(left);
  }

  /** Removes every link of a right-hand record (it was deleted). */
  deleteRight(right: string): void {
    for (const left of this.#byRight.get(right)?.keys() ?? []) this.#byLeft.get(left)?.delete(right);
    this.#byRight.delete(right);
  }
}
