/**
 * What several benchmarks share: a service-account key, the loopback and sandbox servers (each in
 * its own process, through the harness), a bearer token from either, the 100,000-drill data file
 * and the store-search mix.
 */
import { generateKeyPairSync, type KeyObject, randomUUID } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createTokenProvider, parseServiceAccountKey } from "@drill-practice/auth";
import { makeScratchDir, removeScratchDir } from "@drill-practice/tooling/scratch";
import { generateLargeDataset } from "../packages/sandbox/scripts/dataset/large-dataset.ts";
import { DEFAULT_DATA_FILE_URL } from "../packages/sandbox/src/data/data-file-read.ts";
import { type ChildServer, startChild } from "./harness.ts";

export interface BenchKey {
  readonly keyFileJson: string;
  readonly privateKey: KeyObject;
  readonly publicKeyPem: string;
}

/** A fresh RSA 2048 key and its key file, as the service hands one out. */
export function createBenchKey(): BenchKey {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = (key: KeyObject, type: "pkcs8" | "spki") => key.export({ type, format: "pem" }).toString();
  const keyFile = { keyId: randomUUID(), serviceAccountId: "svc-bench", keyType: "RSA_2048" };
  const keyFileJson = JSON.stringify({ ...keyFile, privateKey: pem(privateKey, "pkcs8") });
  return { keyFileJson, privateKey, publicKeyPem: pem(publicKey, "spki") };
}

/** The client credentials the loopback server accepts. */
export const LOOPBACK_CLIENT = {
  clientId: "bench-client",
  clientSecret: "bench-secret-not-a-real-one",
} as const;

/** What loopback-server.ts is handed at start. */
export type LoopbackInit = typeof LOOPBACK_CLIENT & {
  readonly publicKeyPem: string;
  readonly exchangeDelayMs: number;
};

/** A server's URL and the credentials a client needs there (the loopback server's or a sandbox's). */
export interface ServerReady {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly keyFile: string;
}

/** The bare node:http server (loopback-server.ts): discovery, token exchange and a fixed store answer. */
export async function startLoopbackServer(
  key: BenchKey,
  exchangeDelayMs = 0,
): Promise<ChildServer<ServerReady>> {
  const init: LoopbackInit = { publicKeyPem: key.publicKeyPem, ...LOOPBACK_CLIENT, exchangeDelayMs };
  const server = await startChild<ServerReady>("./loopback-server.ts", init);
  return { ...server, ready: { ...server.ready, ...LOOPBACK_CLIENT, keyFile: key.keyFileJson } };
}

export interface SandboxReady extends ServerReady {
  readonly startupMs: number;
  readonly memoryMb: number;
}

/** The built sandbox in a plain Node process (sandbox-server.mjs), the way `drill-sandbox` runs. */
export function startSandboxServer(dataFile?: string): Promise<ChildServer<SandboxReady>> {
  return startChild<SandboxReady>("./sandbox-server.mjs", dataFile === undefined ? {} : { dataFile });
}

/** An `authorization` header with a fresh token from a server's token endpoint. */
export async function bearer({ url, clientId, clientSecret, keyFile }: ServerReady): Promise<string> {
  const key = await parseServiceAccountKey(keyFile);
  return `Bearer ${(await createTokenProvider({ baseUrl: url, clientId, clientSecret, key }).getToken()).value}`;
}

export const LARGE_DRILLS = 100_000;

/** A data file of `generateLargeDataset(drills)` in a scratch folder, removed by `remove`. */
export async function writeLargeDataFile(drills = LARGE_DRILLS) {
  const dir = await makeScratchDir("drill-bench-data-");
  const path = join(dir, "large.json");
  await writeFile(path, JSON.stringify({ formatVersion: 1, ...generateLargeDataset(drills) }));
  return { path, remove: () => removeScratchDir(dir) };
}

/** Drills in the sandbox's default data. */
export async function defaultDrillCount(): Promise<number> {
  return (JSON.parse(await readFile(DEFAULT_DATA_FILE_URL, "utf8")) as { drills: unknown[] }).drills.length;
}

export type SearchParams = Readonly<Record<string, string | readonly string[]>>;

export const DEFAULT_CATALOG = "catalog-academy-business";
export const LARGE_CATALOG = "catalog-large-sample";

/** The store searches every sandbox benchmark cycles through: each kind of query, pages and catalogs. */
export function searchMix(
  catalog: string,
): readonly { readonly label: string; readonly params: SearchParams }[] {
  return [
    { label: "one word", params: { query: "spanish", resultSize: "10" } },
    { label: "one common word", params: { query: "the", resultSize: "10" } },
    { label: "several words", params: { query: "planets moons rivers", resultSize: "10" } },
    { label: "AND", params: { query: "spanish AND vocabulary", resultSize: "10" } },
    { label: "searchField", params: { query: "elements", searchField: ["NAME", "TAGS"], resultSize: "10" } },
    { label: "catalog listing", params: { catalog, resultSize: "20" } },
    { label: "deep page", params: { query: "spanish", resultStart: "5000", resultSize: "10" } },
    { label: "deep catalog page", params: { catalog, resultStart: "500", resultSize: "20" } },
  ];
}

/** The query string of a search, repeated parameters repeated. */
export function queryString(params: SearchParams): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    for (const item of typeof value === "string" ? [value] : value) search.append(name, item);
  return search.toString();
}

/** A table of the mix: each search's label and query string, then `columns` of it. */
export const mixColumns = (mix: ReturnType<typeof searchMix>, columns: (i: number) => string[]): string[][] =>
  mix.map(({ label, params }, i) => [label, `\`${queryString(params)}\``, ...columns(i)]);
