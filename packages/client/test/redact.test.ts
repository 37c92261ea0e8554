/**
 * The redactor on its own: known secrets in every spelling a request or a
 * server can give them, the secret-shaped patterns, server text made fit for a
 * message, and the scrubbed copy of a foreign error kept as a cause.
 */
import { describe, expect, it } from "vitest";
import { REDACTED, redactedCause, redactSecrets, serverText } from "../src/core/index.js";

// Characters that percent-encoding spells with a hex letter (":" %3A, "/" %2F),
// a space (%20, or "+" in a form body) and quotes (escaped inside a JSON string).
const SECRET = 's3:cr/t "pw"';

/**
 * Ordinary text with nothing secret-shaped in it. The last sample is the text
 * Stryker puts into an array literal it mutates; it is here so that a stray
 * entry in a list of secrets that should be empty shows up as a redaction.
 */
const ORDINARY = [
  "getaddrinfo ENOTFOUND api.drill-practice.example (10.0.0.1)",
  "The drill was not found",
  "Stryker was here",
];

describe("redactSecrets with known secrets", () => {
  it("replaces a secret as it is, percent-encoded, form-encoded and JSON-escaped", () => {
    const query = `https://drill.example/token?client_secret=${encodeURIComponent(SECRET)}&x=1`;
    expect(redactSecrets(query, [SECRET])).toBe(`https://drill.example/token?client_secret=${REDACTED}&x=1`);

    const form = new URLSearchParams({ client_secret: SECRET, grant_type: "client_credentials" }).toString();
    expect(redactSecrets(`sent ${form}`, [SECRET])).toBe(
      `sent client_secret=${REDACTED}&grant_type=client_credentials`,
    );

    // The JSON quotes around the value belong to the JSON, not to the secret, and stay.
    const body = JSON.stringify({ client_secret: SECRET, scope: "drill" });
    expect(redactSecrets(body, [SECRET])).toBe(`{"client_secret":"${REDACTED}","scope":"drill"}`);

    expect(redactSecrets(`bad secret ${SECRET}!`, [SECRET])).toBe(`bad secret ${REDACTED}!`);
  });

  it("replaces the percent-encoded spellings with lower-case hex too", () => {
    // A server that re-encodes what it received may write the hex digits in lower case.
    const lowerUri = "s3%3acr%2ft%20%22pw%22";
    const lowerForm = "s3%3acr%2ft+%22pw%22";
    expect(decodeURIComponent(lowerUri)).toBe(SECRET);
    expect(decodeURIComponent(lowerForm.replaceAll("+", " "))).toBe(SECRET);
    expect(redactSecrets(`echo ${lowerUri} and ${lowerForm}.`, [SECRET])).toBe(
      `echo ${REDACTED} and ${REDACTED}.`,
    );
  });

  it("replaces a longer secret whole when it contains a shorter one", () => {
    const short = "drill-key";
    const long = `${short}-with-suffix-2`;
    // The short one first, so that an in-order replacement would leave "-with-suffix-2" behind.
    expect(redactSecrets(`got ${long}, expected ${short}`, [short, long])).toBe(
      `got ${REDACTED}, expected ${REDACTED}`,
    );
  });

  it("ignores empty and undefined secrets", () => {
    for (const text of ORDINARY) {
      expect(redactSecrets(text, ["", undefined])).toBe(text);
      expect(redactSecrets(text, [])).toBe(text);
      expect(redactSecrets(text)).toBe(text);
    }
    expect(redactSecrets(`bad ${SECRET}`, [undefined, "", SECRET])).toBe(`bad ${REDACTED}`);
  });
});

describe("redactSecrets by pattern", () => {
  it("keeps the label of an Authorization value and the word Bearer", () => {
    expect(redactSecrets("failed: Authorization: Basic dXNlcjpwYXNz")).toBe(
      `failed: Authorization: ${REDACTED}`,
    );
    expect(redactSecrets('headers {"authorization":"Token t0p-s3cret"}')).toBe(
      `headers {"authorization":"${REDACTED}"}`,
    );
    expect(redactSecrets("socket hang up (Bearer s3cr3t-T0ken_x)")).toBe(
      `socket hang up (Bearer ${REDACTED})`,
    );
  });

  it("replaces JWT-shaped strings, long dotted triples and PEM blocks, and leaves host names", () => {
    const jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl";
    expect(redactSecrets(`bad header ${jwt} in request`)).toBe(`bad header ${REDACTED} in request`);
    const triple = ["a".repeat(16), "b".repeat(20), "c".repeat(16)].join(".");
    expect(redactSecrets(`opaque ${triple} token`)).toBe(`opaque ${REDACTED} token`);
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----";
    expect(redactSecrets(`key file:\n${pem}\nend`)).toBe(`key file:\n${REDACTED}\nend`);
    // A bare header line names the format and carries no key material.
    const hint = "expected a -----BEGIN PRIVATE KEY----- line";
    expect(redactSecrets(hint)).toBe(hint);
    const host = "connect to api.drill-practice.example.org failed";
    expect(redactSecrets(host)).toBe(host);
  });
});

describe("serverText", () => {
  it("turns control characters into spaces and trims the result", () => {
    expect(serverText("a\u0000b\u001fc\u007fd")).toBe("a b c d");
    expect(serverText("  \u0007 The drill expired \r\n")).toBe("The drill expired");
  });

  it("cuts at maxLength and marks the cut with an ellipsis, not before", () => {
    const max = 10;
    const fits = "x".repeat(max);
    expect(serverText(fits, [], max)).toBe(fits);
    expect(serverText(`${fits}y`, [], max)).toBe(`${fits}…`);
  });

  it("redacts the known secrets and the patterns", () => {
    expect(serverText(`bad secret ${SECRET}; try Bearer abc.def`, [SECRET])).toBe(
      `bad secret ${REDACTED}; try Bearer ${REDACTED}`,
    );
    for (const text of ORDINARY) expect(serverText(text)).toBe(text);
  });
});

/** The attributes of an own property, without its value. */
function attributes(target: object, key: string) {
  const { value: _value, ...flags } = Object.getOwnPropertyDescriptor(target, key) ?? {};
  return flags;
}

/** An error whose cause chain is `length` errors long (the error itself included). */
function chain(length: number): Error {
  let error = new Error(`level ${length - 1}`);
  for (let level = length - 2; level >= 0; level--) error = new Error(`level ${level}`, { cause: error });
  return error;
}

/** The errors of a cause chain, the first one included. */
function levels(error: unknown): Error[] {
  const found: Error[] = [];
  for (let at = error; at instanceof Error && found.length < 100; at = at.cause) found.push(at);
  return found;
}

describe("redactedCause", () => {
  it("redacts a string, drops objects and functions, and keeps other primitives", () => {
    expect(redactedCause(`sent ${SECRET}`, [SECRET])).toBe(`sent ${REDACTED}`);
    for (const dropped of [{ headers: { authorization: "Bearer x" } }, [1], Object.create(null), () => "x"]) {
      expect(redactedCause(dropped)).toBeUndefined();
    }
    for (const text of ORDINARY) {
      expect(redactedCause(text)).toBe(text);
      expect((redactedCause(new Error(text)) as Error).message).toBe(text);
    }
    const symbol = Symbol("reason");
    for (const kept of [42, true, null, undefined, 7n, symbol]) expect(redactedCause(kept)).toBe(kept);
  });

  it("keeps the built-in class, or the name of any other error", () => {
    for (const Type of [TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError]) {
      const copy = redactedCause(new Type(`failed: ${SECRET}`), [SECRET]);
      expect(copy).toBeInstanceOf(Type);
      expect((copy as Error).name).toBe(Type.name);
      expect((copy as Error).message).toBe(`failed: ${REDACTED}`);
    }
    class FetchFailure extends Error {
      constructor(message: string) {
        super(message);
        this.name = "FetchFailure";
      }
    }
    const custom = redactedCause(new FetchFailure("refused"));
    expect(custom).toBeInstanceOf(Error);
    expect((custom as Error).name).toBe("FetchFailure");
    const aborted = redactedCause(new DOMException("The operation was aborted", "AbortError"));
    expect((aborted as Error).name).toBe("AbortError");
    expect((aborted as Error).message).toBe("The operation was aborted");
  });

  it("has the own properties of the original, none of them enumerable but its own fields", () => {
    const original = Object.assign(new TypeError("fetch failed", { cause: new Error("refused") }), {
      code: "ECONNRESET",
    });
    const copy = redactedCause(original) as Error;
    expect(Reflect.ownKeys(copy).sort()).toEqual(Reflect.ownKeys(original).sort());
    expect(Object.keys(copy)).toEqual(["code"]);
    // The engine's own stack and cause can be rewritten and deleted; so can the copy's.
    const engine = new Error("x", { cause: 1 });
    expect(attributes(copy, "stack")).toEqual(attributes(engine, "stack"));
    expect(attributes(copy, "cause")).toEqual(attributes(engine, "cause"));
    const renamed = redactedCause(new DOMException("aborted", "AbortError")) as Error;
    expect(attributes(renamed, "name")).toEqual(attributes(Error.prototype, "name"));
  });

  it("copies the stack with the secrets redacted, and no stack when there is none", () => {
    const original = new Error(`refused ${SECRET}`);
    const copy = redactedCause(original, [SECRET]) as Error;
    expect(original.stack).toContain(SECRET);
    expect(copy.stack).toBe(original.stack?.replaceAll(SECRET, REDACTED));

    const stackless = new Error("refused");
    delete stackless.stack;
    const bare = redactedCause(stackless) as Error;
    expect(bare.message).toBe("refused");
    expect(bare.stack).toBeUndefined();
  });

  it("keeps string fields redacted, numbers and booleans as they are, and drops other values", () => {
    const original = Object.assign(new Error("connect failed"), {
      code: "ECONNREFUSED",
      errno: -111,
      port: 9,
      fatal: false,
      retryable: true,
      sent: "Authorization: Bearer abc.def.ghi",
      secretEcho: SECRET,
      request: { headers: { authorization: "Bearer abc.def.ghi" } },
      callback: () => undefined,
      size: 10n,
      missing: undefined,
    });
    const copy = redactedCause(original, [SECRET]);
    expect({ ...(copy as object) }).toEqual({
      code: original.code,
      errno: original.errno,
      port: original.port,
      fatal: original.fatal,
      retryable: original.retryable,
      sent: `Authorization: ${REDACTED}`,
      secretEcho: REDACTED,
    });
    expect(Object.keys(copy as object)).not.toContain("missing");
  });

  it("copies a cause set as an ordinary field as the engine's cause: redacted and not enumerable", () => {
    const original = Object.assign(new Error("outer"), { cause: `upstream said ${SECRET}` });
    expect(Object.keys(original)).toContain("cause");
    const copy = redactedCause(original, [SECRET]) as Error;
    expect(copy.cause).toBe(`upstream said ${REDACTED}`);
    expect(Object.keys(copy)).toEqual([]);
    expect(JSON.stringify(copy)).toBe("{}");
  });

  it("copies nested causes with the same secrets, and leaves out a nested cause it drops", () => {
    const inner = Object.assign(new Error(`refused ${SECRET}`), { code: "ECONNREFUSED" });
    const copy = redactedCause(new TypeError("fetch failed", { cause: inner }), [SECRET]) as Error;
    const innerCopy = copy.cause as Error & { code?: string };
    expect(innerCopy).toBeInstanceOf(Error);
    expect(innerCopy.message).toBe(`refused ${REDACTED}`);
    expect(innerCopy.code).toBe(inner.code);

    const withRequest = redactedCause(new TypeError("fetch failed", { cause: { headers: {} } })) as Error;
    expect("cause" in withRequest).toBe(false);
    const withUndefined = redactedCause(new TypeError("fetch failed", { cause: undefined })) as Error;
    expect("cause" in withUndefined).toBe(false);
  });

  it("copies four levels of nested causes at most, and ends a chain that loops", () => {
    const deep = redactedCause(chain(10));
    // The error itself and four nested causes.
    expect(levels(deep).map((error) => error.message)).toEqual(
      levels(chain(5)).map((error) => error.message),
    );
    expect(levels(redactedCause(chain(3)))).toHaveLength(3);

    const loop = new Error("loops");
    Object.defineProperty(loop, "cause", { value: loop, writable: true, configurable: true });
    expect(levels(redactedCause(loop))).toHaveLength(5);
  });
});
