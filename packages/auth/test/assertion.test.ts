/**
 * Building the JWT assertion on its own: the header and claims the token endpoint
 * checks, `exp` from the server's clock, and the lifetime option's bounds. Expected
 * values come from the key and the input; the fixed header values (RS256, JWT) are
 * the ones the service interface requires of every assertion.
 */
import { decodeProtectedHeader, jwtVerify } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import {
  buildAssertionClaims,
  buildAssertionHeader,
  MAX_ASSERTION_LIFETIME_SECONDS,
  signAssertion,
  validateAssertionLifetime,
} from "../src/assertion.js";
import { DrillInvalidOptionError, type ServiceAccountKey } from "../src/index.js";
import { rsaKeyPair, testKey } from "./helpers.js";

const AUDIENCE = "https://drill.example/daas/oauth/token";

let key: ServiceAccountKey;
beforeAll(async () => {
  key = await testKey();
});

function thrown(action: () => unknown): DrillInvalidOptionError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(DrillInvalidOptionError);
    return error as DrillInvalidOptionError;
  }
  throw new Error("expected a DrillInvalidOptionError");
}

describe("validateAssertionLifetime", () => {
  it("accepts every whole number of seconds from 1 to the interface's maximum", () => {
    for (const seconds of [1, 2, 300, MAX_ASSERTION_LIFETIME_SECONDS - 1, MAX_ASSERTION_LIFETIME_SECONDS]) {
      expect(validateAssertionLifetime(seconds)).toBe(seconds);
    }
  });

  it.each([
    0,
    -1,
    MAX_ASSERTION_LIFETIME_SECONDS + 1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    "300",
    null,
    undefined,
  ])("refuses %s, naming the option and the range", (value) => {
    const error = thrown(() => validateAssertionLifetime(value));
    expect(error.option).toBe("assertionLifetimeSeconds");
    expect(error.message).toContain("assertionLifetimeSeconds");
    expect(error.message).toContain(`from 1 to ${MAX_ASSERTION_LIFETIME_SECONDS}`);
  });

  it("names the option it was given", () => {
    const error = thrown(() => validateAssertionLifetime(0, "tokens.lifetime"));
    expect(error.option).toBe("tokens.lifetime");
    expect(error.message).toContain("tokens.lifetime");
  });
});

describe("buildAssertionHeader and buildAssertionClaims", () => {
  it("puts the key's ID in kid, with RS256 and typ JWT", () => {
    expect(buildAssertionHeader(key)).toEqual({ alg: "RS256", typ: "JWT", kid: key.keyId });
  });

  it("takes iss from the key, sub and aud from the input, exp from the server time rounded down", () => {
    for (const [now, lifetimeSeconds] of [
      [1_700_000_000_000, 300],
      [1_700_000_000_999, 1],
      [1_700_000_001_001, MAX_ASSERTION_LIFETIME_SECONDS],
    ] as const) {
      const subject = `user-${lifetimeSeconds}@example.test`;
      const claims = buildAssertionClaims({ key, subject, audience: AUDIENCE, now, lifetimeSeconds });
      expect(claims).toEqual({
        iss: key.serviceAccountId,
        sub: subject,
        aud: AUDIENCE,
        exp: Math.floor(now / 1000) + lifetimeSeconds,
      });
      // Never more than the lifetime ahead of the server's clock.
      expect(claims.exp * 1000 - now).toBeLessThanOrEqual(lifetimeSeconds * 1000);
    }
  });

  it("refuses an empty or non-string subject, and a bad lifetime, before building anything", () => {
    for (const subject of ["", 42 as unknown as string, undefined as unknown as string]) {
      const error = thrown(() =>
        buildAssertionClaims({ key, subject, audience: AUDIENCE, now: 0, lifetimeSeconds: 300 }),
      );
      expect(error.option).toBe("subject");
      expect(error.message).toContain("non-empty string");
    }
    const error = thrown(() =>
      buildAssertionClaims({ key, subject: "s", audience: AUDIENCE, now: 0, lifetimeSeconds: 0 }),
    );
    expect(error.option).toBe("assertionLifetimeSeconds");
  });
});

describe("signAssertion", () => {
  it("signs exactly the built header and claims with the key, verifiable with its public half", async () => {
    const input = {
      key,
      subject: "ana@example.test",
      audience: AUDIENCE,
      now: Date.now(),
      lifetimeSeconds: 120,
    };
    const assertion = await signAssertion(input);
    expect(decodeProtectedHeader(assertion)).toEqual(buildAssertionHeader(key));
    const { payload } = await jwtVerify(assertion, rsaKeyPair().publicKey, { audience: AUDIENCE });
    expect(payload).toEqual(buildAssertionClaims(input));
  });

  it("does not sign with a bad input", async () => {
    await expect(
      signAssertion({ key, subject: "", audience: AUDIENCE, now: Date.now(), lifetimeSeconds: 60 }),
    ).rejects.toBeInstanceOf(DrillInvalidOptionError);
  });
});
