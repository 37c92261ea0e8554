/**
 * Field-level checks of a data file: one value at a time, each problem recorded with its JSON path.
 */
import type { DataFileProblem } from "../errors.js";

/**
 * A parsed JSON object whose fields are still unchecked.
 */
export type Json = Record<string, unknown>;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Lists up to this long are searched for repeats by a scan, longer ones through a set. */
const SCAN_LIMIT = 16;

/**
 * The JSON path of a field or element below `path`; names that are not identifiers are quoted.
 */
export function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/**
 * How a problem message names a value that has the wrong kind.
 */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * A copy of `list` exactly as long as it: an array grown by `push` keeps spare room (V8 grows an empty
 * array to 17 slots at the first push), which over the tags and items of 100,000 drills came to 15 MB.
 */
export function trimmed<T>(list: T[]): T[] {
  return list.slice();
}

/**
 * Collects problems while reading parsed JSON values into the sandbox's types. Problems go to `problems`,
 * which the caller may point at another list between values (the checker keeps one list per section).
 */
export class FieldReader {
  problems: DataFileProblem[] = [];
  readonly #texts = new Map<string, string>();

  /** One string per distinct value for labels that repeat across records (tags, subjects, names of parts). */
  shared(value: string): string {
    const known = this.#texts.get(value);
    if (known !== undefined) return known;
    this.#texts.set(value, value);
    return value;
  }

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  object(value: unknown, path: string, allowed: readonly string[]): Json | undefined {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.problem(path, `must be an object, got ${describe(value)}`);
      return undefined;
    }
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key))
        this.problem(child(path, key), `unknown property (allowed: ${allowed.join(", ")})`);
    }
    return value as Json;
  }

  string(obj: Json, key: string, path: string): string {
    const value = obj[key];
    // The path is built only for a problem: a large file has millions of valid strings.
    if (value === undefined) {
      this.problem(child(path, key), "is required (a non-empty string)");
      return "";
    }
    if (typeof value !== "string" || value.trim() === "") {
      this.problem(child(path, key), `must be a non-empty string, got ${describe(value)}`);
      return "";
    }
    return value;
  }

  optionalString(obj: Json, key: string, path: string, fallback: string): string {
    const value = obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== "string") {
      this.problem(child(path, key), `must be a string, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  optionalBoolean(obj: Json, key: string, path: string, fallback: boolean): boolean {
    const value = obj[key];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") {
      this.problem(child(path, key), `must be true or false, got ${describe(value)}`);
      return fallback;
    }
    return value;
  }

  /** The array at `obj[key]`, or an empty one after recording why there is none. */
  array(obj: Json, key: string, path: string, required: boolean): unknown[] {
    const value = obj[key];
    // The path is built only for a problem: a large file has hundreds of thousands of valid arrays.
    if (Array.isArray(value)) return value;
    return this.arrayValue(value, child(path, key), required);
  }

  /** `value` if it is an array, or an empty one after recording why it is not (`at` is its path). */
  arrayValue(value: unknown, at: string, required: boolean): unknown[] {
    if (value === undefined) {
      if (required) this.problem(at, "is required (an array)");
      return [];
    }
    if (!Array.isArray(value)) {
      this.problem(at, `must be an array, got ${describe(value)}`);
      return [];
    }
    return value;
  }

  /** An array of non-empty strings without repeats; `check` adds rules for each element. */
  strings(
    obj: Json,
    key: string,
    path: string,
    required: boolean,
    check?: (value: string, at: string) => void,
  ): string[] {
    const values = this.array(obj, key, path, required);
    const out: string[] = [];
    // Repeats are looked for in the short lists of a record (tags, e-mail addresses) by a scan of what
    // is kept, which allocates nothing; a set only for a long list.
    const seen = values.length > SCAN_LIMIT ? new Set<string>() : undefined;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      if (typeof value !== "string" || value.trim() === "") {
        this.problem(child(child(path, key), i), `must be a non-empty string, got ${describe(value)}`);
        continue;
      }
      if (seen === undefined ? out.includes(value) : seen.has(value)) {
        this.problem(child(child(path, key), i), `repeats ${JSON.stringify(value)}`);
        continue;
      }
      seen?.add(value);
      check?.(value, child(child(path, key), i));
      out.push(this.shared(value));
    }
    return trimmed(out);
  }

  constant(obj: Json, key: string, path: string, expected: string): void {
    const value = obj[key];
    if (value !== undefined && value !== expected) {
      this.problem(
        child(path, key),
        `must be ${JSON.stringify(expected)} when given, got ${describe(value)}`,
      );
    }
  }
}
