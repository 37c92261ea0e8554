/**
 * Reads a JSON document whose top level is an object, chunk by chunk, and hands over each top-level
 * member's value, or for the members the visitor streams, each element of an array value, as soon as
 * it is complete. Only one value's text exists at a time, so a large data file is never in memory whole,
 * neither as one string nor as one parsed tree.
 *
 * The scanner itself only finds where each value ends (tracking strings, escapes and bracket depth) and
 * checks the punctuation between values; each value's text goes to `JSON.parse`, which checks the rest.
 * UTF-8 needs no special care: every byte of a multi-byte character is 0x80 or above, so none of them
 * can be mistaken for a quote, a backslash or a bracket, and a value's bytes are decoded together even
 * when they arrive in several chunks.
 */
import { oneLineMessage } from "@drill-practice/client/internal";

/**
 * Receives what {@link TopLevelScanner} finds, in document order.
 */
export interface TopLevelVisitor {
  /** Whether an array value of this member is handed over element by element. */
  streams(key: string): boolean;
  /** A whole member value (of a member that is not streamed, or whose value is not an array). */
  member(key: string, value: unknown): void;
  /** One element of a streamed array, with its position. */
  element(key: string, index: number, value: unknown): void;
  /** A streamed array ended after `length` elements. */
  arrayEnd(key: string, length: number): void;
}

/**
 * The scanner stopped: the text is not valid JSON, or it is valid but not an object at the top, or a
 * top-level name repeats (`JSON.parse` keeps the last value, streaming would have used the first).
 * `offset` is the byte where it stopped.
 */
export class JsonScanError extends Error {
  override readonly name = "JsonScanError";
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** JSON's four whitespace characters; nothing else (not even a byte order mark) may stand between tokens. */
function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Where the scanner is between values. */
const BEFORE_ROOT = 0;
const OBJECT_FIRST = 1;
const OBJECT_NEXT = 2;
const AFTER_KEY = 3;
const BEFORE_VALUE = 4;
const AFTER_MEMBER = 5;
const ARRAY_FIRST = 6;
const ARRAY_NEXT = 7;
const AFTER_ELEMENT = 8;
const AFTER_ROOT = 9;

/** Kinds of value text being collected; a scalar ends at the byte after it, which is not part of it. */
const NO_VALUE = 0;
const STRING = 1;
const NESTED = 2;
const SCALAR = 3;

/** What a collected value is. */
const KEY = 0;
const MEMBER = 1;
const ELEMENT = 2;

/**
 * Push scanner over the bytes of one JSON document: call {@link TopLevelScanner.write} with each chunk,
 * then {@link TopLevelScanner.end}. Both throw {@link JsonScanError} where the document cannot be
 * streamed; the visitor has by then seen the values before that point.
 */
export class TopLevelScanner {
  readonly #visitor: TopLevelVisitor;
  #state = BEFORE_ROOT;
  /** Bytes of the chunks before the current one, for error offsets. */
  #consumed = 0;
  readonly #keys = new Set<string>();
  #key = "";
  #index = 0;

  /** The value being collected: its kind and purpose, and its bytes from earlier chunks. */
  #kind = NO_VALUE;
  #purpose = KEY;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** Where the value starts in the current chunk (0 when it began in an earlier one). */
  #start = 0;
  #pending: Buffer[] = [];

  constructor(visitor: TopLevelVisitor) {
    this.#visitor = visitor;
  }

  /** Scans the next chunk of the document. The chunk may be reused afterwards: the scanner copies what it keeps. */
  write(chunk: Buffer): void {
    let i = 0;
    const length = chunk.length;
    for (;;) {
      // Checked before the end of the chunk: a value may begin at its last byte.
      if (this.#kind !== NO_VALUE) {
        const end = this.#valueEnd(chunk, i);
        if (end < 0) {
          this.#pending.push(Buffer.from(chunk.subarray(this.#start)));
          this.#start = 0;
          break;
        }
        this.#deliver(chunk, this.#start, end);
        i = end;
        continue;
      }
      if (i >= length) break;
      const byte = chunk[i] as number;
      if (isWhitespace(byte)) {
        i++;
        continue;
      }
      i = this.#punctuation(i, byte);
    }
    this.#consumed += length;
  }

  /** Ends the document: throws unless the top-level object was closed. */
  end(): void {
    if (this.#state !== AFTER_ROOT || this.#kind !== NO_VALUE) {
      throw new JsonScanError("unexpected end of the document", this.#consumed);
    }
  }

  /** Handles the byte at `at` between values; returns where scanning goes on. */
  #punctuation(at: number, byte: number): number {
    switch (this.#state) {
      case BEFORE_ROOT:
        if (byte !== OPEN_BRACE) this.#fail("the top level is not an object", at);
        this.#state = OBJECT_FIRST;
        return at + 1;
      case OBJECT_FIRST:
      case OBJECT_NEXT:
        if (byte === CLOSE_BRACE && this.#state === OBJECT_FIRST) {
          this.#state = AFTER_ROOT;
          return at + 1;
        }
        if (byte !== QUOTE) this.#fail("expected a property name", at);
        return this.#begin(KEY, at, byte);
      case AFTER_KEY:
        if (byte !== COLON) this.#fail("expected ':' after a property name", at);
        this.#state = BEFORE_VALUE;
        return at + 1;
      case BEFORE_VALUE:
        if (byte === OPEN_BRACKET && this.#visitor.streams(this.#key)) {
          this.#state = ARRAY_FIRST;
          this.#index = 0;
          return at + 1;
        }
        return this.#begin(MEMBER, at, byte);
      case AFTER_MEMBER:
        if (byte === COMMA) this.#state = OBJECT_NEXT;
        else if (byte === CLOSE_BRACE) this.#state = AFTER_ROOT;
        else this.#fail("expected ',' or '}' after a property value", at);
        return at + 1;
      case ARRAY_FIRST:
        if (byte === CLOSE_BRACKET) return this.#endArray(at);
        return this.#begin(ELEMENT, at, byte);
      case ARRAY_NEXT:
        // A `]` here (a trailing comma) becomes an empty value, which JSON.parse refuses.
        return this.#begin(ELEMENT, at, byte);
      case AFTER_ELEMENT:
        if (byte === COMMA) {
          this.#state = ARRAY_NEXT;
          return at + 1;
        }
        if (byte === CLOSE_BRACKET) return this.#endArray(at);
        return this.#fail("expected ',' or ']' after an array element", at);
      default:
        return this.#fail("unexpected text after the top-level object", at);
    }
  }

  #endArray(at: number): number {
    this.#visitor.arrayEnd(this.#key, this.#index);
    this.#state = AFTER_MEMBER;
    return at + 1;
  }

  /** Starts collecting a value at `at`; returns where its scan starts. */
  #begin(purpose: number, at: number, first: number): number {
    this.#purpose = purpose;
    this.#start = at;
    this.#pending = [];
    this.#depth = 0;
    this.#escaped = false;
    this.#inString = first === QUOTE;
    if (first === QUOTE) this.#kind = STRING;
    else if (first === OPEN_BRACE || first === OPEN_BRACKET) {
      this.#kind = NESTED;
      this.#depth = 1;
    } else {
      this.#kind = SCALAR;
      return at;
    }
    return at + 1;
  }

  /**
   * Scans the value being collected from `from` on: returns the index just past its last byte, or -1
   * when it goes on in the next chunk (the scan state is kept for that).
   */
  #valueEnd(chunk: Buffer, from: number): number {
    const kind = this.#kind;
    const length = chunk.length;
    let depth = this.#depth;
    let inString = this.#inString;
    let escaped = this.#escaped;
    let i = from;
    let end = -1;
    while (i < length) {
      if (inString) {
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        // Most of a data file is string contents: skip to the next quote or backslash in a tight loop.
        let byte = chunk[i] as number;
        while (byte !== QUOTE && byte !== BACKSLASH && ++i < length) byte = chunk[i] as number;
        if (i === length) break;
        i++;
        if (byte === BACKSLASH) escaped = true;
        else {
          inString = false;
          if (kind === STRING) {
            end = i;
            break;
          }
        }
        continue;
      }
      const byte = chunk[i] as number;
      if (kind === SCALAR) {
        if (isWhitespace(byte) || byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          end = i;
          break;
        }
      } else if (byte === QUOTE) inString = true;
      else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++;
      else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && --depth === 0) {
        end = i + 1;
        break;
      }
      i++;
    }
    this.#depth = depth;
    this.#inString = inString;
    this.#escaped = escaped;
    return end;
  }

  /** Parses the collected value (its last part is `chunk[start..end)`) and hands it over. */
  #deliver(chunk: Buffer, start: number, end: number): void {
    const text =
      this.#pending.length === 0
        ? chunk.toString("utf8", start, end)
        : Buffer.concat([...this.#pending, chunk.subarray(start, end)]).toString("utf8");
    this.#pending = [];
    this.#kind = NO_VALUE;
    this.#start = 0;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.#fail(`a value is not valid JSON: ${oneLineMessage(error)}`, end);
    }
    if (this.#purpose === KEY) {
      const key = value as string;
      if (this.#keys.has(key)) this.#fail(`the top-level name ${JSON.stringify(key)} repeats`, end);
      this.#keys.add(key);
      this.#key = key;
      this.#state = AFTER_KEY;
    } else if (this.#purpose === MEMBER) {
      this.#visitor.member(this.#key, value);
      this.#state = AFTER_MEMBER;
    } else {
      this.#visitor.element(this.#key, this.#index++, value);
      this.#state = AFTER_ELEMENT;
    }
  }

  #fail(message: string, at: number): never {
    throw new JsonScanError(message, this.#consumed + at);
  }
}
