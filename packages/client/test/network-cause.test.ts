/**
 * A failed fetch keeps the platform's reason in the error message, and a failure
 * that can only repeat (bad port, invalid URL, untrusted TLS certificate) is not
 * retried. The platform cases run Node's own fetch against 127.0.0.1.
 */
import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { closedLoopbackPort } from "@drill-practice/tooling/ports";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDrillClient, DrillNetworkError, type RetryOptions } from "../src/index.js";

/** Retries without waiting, counting the waits. */
function instantRetries(): { retry: RetryOptions; waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    retry: {
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  };
}

async function networkError(promise: Promise<unknown>): Promise<DrillNetworkError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(DrillNetworkError);
  return error as DrillNetworkError;
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

describe("the platform's reason for a failed fetch", () => {
  // A self-signed certificate for CN=127.0.0.1 (test fixture, valid for 100 years).
  const tls = createHttpsServer(
    { key: fixture("self-signed-key.pem"), cert: fixture("self-signed-cert.pem") },
    (_, res) => res.end("{}"),
  );
  // TCP connections accepted: one per attempt, counted before the handshake fails.
  let connections = 0;
  tls.on("connection", () => connections++);
  let tlsUrl = "";

  beforeAll(async () => {
    await new Promise<void>((resolve) => tls.listen(0, "127.0.0.1", resolve));
    tlsUrl = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => tls.close(resolve));
  });

  it("a port the platform refuses (bad port): the reason is in the message, and it is tried once", async () => {
    const { retry, waits } = instantRetries();
    const client = createDrillClient({ baseUrl: "http://127.0.0.1:9", retry });
    const error = await networkError(client.GET("/api/2.1/version"));
    expect(error.message).toBe(
      "GET http://127.0.0.1:9/api/2.1/version failed without a response after 1 attempt: fetch failed (bad port)",
    );
    expect(error.attempts).toBe(1);
    expect(waits).toEqual([]);
    expect((error.cause as Error & { cause: Error }).cause.message).toBe("bad port");
  });

  it("an untrusted TLS certificate: its code and reason are in the message, and it is tried once", async () => {
    const { retry, waits } = instantRetries();
    const client = createDrillClient({ baseUrl: tlsUrl, retry });
    const error = await networkError(client.GET("/api/2.1/version"));
    expect(error.message).toBe(
      `GET ${tlsUrl}/api/2.1/version failed without a response after 1 attempt: fetch failed (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate)`,
    );
    expect(waits).toEqual([]);
    expect(connections).toBe(1);
  });

  it("a refused connection may pass later: it is still retried, with its code in the message", async () => {
    const port = await closedLoopbackPort();
    const { retry, waits } = instantRetries();
    const client = createDrillClient({ baseUrl: `http://127.0.0.1:${port}`, retry });
    const error = await networkError(client.GET("/api/2.1/version"));
    expect(error.attempts).toBe(3);
    expect(waits).toHaveLength(2);
    expect(error.message).toMatch(/after 3 attempts: fetch failed \(ECONNREFUSED\)$/);
  });

  it("an address the platform cannot parse (ERR_INVALID_URL, as undici reports it) is tried once", async () => {
    let calls = 0;
    const fetch = async () => {
      calls++;
      const cause = Object.assign(new TypeError("Invalid URL"), { code: "ERR_INVALID_URL" });
      throw new TypeError("Failed to parse URL from http://exa mple/", { cause });
    };
    const { retry } = instantRetries();
    const client = createDrillClient({ baseUrl: "https://drill.example", fetch, retry });
    const error = await networkError(client.GET("/api/2.1/version"));
    expect(calls).toBe(1);
    expect(error.message).toMatch(
      /after 1 attempt: Failed to parse URL from http:\/\/exa mple\/ \(ERR_INVALID_URL: Invalid URL\)$/,
    );
  });

  it("a reason that only repeats the outer message, or none at all, adds nothing", async () => {
    const same = async () => {
      throw new TypeError("fetch failed", { cause: new Error("fetch failed") });
    };
    const bare = async () => {
      throw new TypeError("fetch failed");
    };
    for (const fetch of [same, bare]) {
      const client = createDrillClient({ baseUrl: "https://drill.example", fetch, retry: false });
      const error = await networkError(client.GET("/api/2.1/version"));
      expect(error.message).toMatch(/after 1 attempt: fetch failed$/);
    }
  });
});
