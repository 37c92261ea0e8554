/**
 * The sandbox's registered client application and its organizations' service account keys. Secrets live
 * in private fields, so neither `JSON.stringify` nor `util.inspect` of these objects can reveal them.
 */
import type { CryptoKey } from "jose";
import { exportPKCS8, generateKeyPair, importSPKI } from "jose";
import { SandboxOptionError } from "../errors.js";
import { randomUuid } from "./web-crypto.js";

/** The symbol `util.inspect` looks for, reached through the global registry so no Node module is imported. */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

/**
 * The key type the interface names for the service account key pair.
 */
export const KEY_TYPE = "RSA_2048";

/**
 * A service account key file as the sandbox writes it. `keyId` and `serviceAccountId` are the interface's
 * field names; `keyType` and `privateKey` are the sandbox's own names for the two facts the interface
 * says the file carries without naming their fields.
 *
 * @example
 * ```ts
 * import { writeFile } from "node:fs/promises";
 * import { createSandbox, type ServiceAccountKeyFile } from "@drill-practice/sandbox";
 *
 * const sandbox = await createSandbox();
 * const file: ServiceAccountKeyFile | undefined = sandbox.credentials.keyFile();
 * // { keyId, serviceAccountId, keyType: "RSA_2048", privateKey: "-----BEGIN PRIVATE KEY-----…" }
 * await writeFile("./service-account.json", JSON.stringify(file), { mode: 0o600 });
 * ```
 */
export interface ServiceAccountKeyFile {
  readonly keyId: string;
  readonly serviceAccountId: string;
  readonly keyType: typeof KEY_TYPE;
  /** PKCS#8, PEM encoded. */
  readonly privateKey: string;
}

/**
 * One organization's service account and the public half of its key, used to verify assertions.
 */
export class ServiceAccount {
  readonly organizationId: string;
  readonly serviceAccountId: string;
  readonly keyId: string;
  readonly publicKey: CryptoKey;
  readonly #privateKeyPem: string | undefined;

  constructor(fields: {
    organizationId: string;
    serviceAccountId: string;
    keyId: string;
    publicKey: CryptoKey;
    privateKeyPem: string | undefined;
  }) {
    this.organizationId = fields.organizationId;
    this.serviceAccountId = fields.serviceAccountId;
    this.keyId = fields.keyId;
    this.publicKey = fields.publicKey;
    this.#privateKeyPem = fields.privateKeyPem;
  }

  /**
   * The key file for this service account, or `undefined` when the data file supplied only a public key
   * (the private key then stays with whoever made the key pair).
   */
  keyFile(): ServiceAccountKeyFile | undefined {
    if (this.#privateKeyPem === undefined) return undefined;
    return {
      keyId: this.keyId,
      serviceAccountId: this.serviceAccountId,
      keyType: KEY_TYPE,
      privateKey: this.#privateKeyPem,
    };
  }

  /** Whether the sandbox holds the private key (it made the key pair itself). */
  get hasPrivateKey(): boolean {
    return this.#privateKeyPem !== undefined;
  }

  toJSON(): Record<string, unknown> {
    return {
      organizationId: this.organizationId,
      serviceAccountId: this.serviceAccountId,
      keyId: this.keyId,
      privateKey: this.hasPrivateKey ? "[redacted]" : undefined,
    };
  }

  [INSPECT](): string {
    return `ServiceAccount ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * What a client of the sandbox needs to get tokens: the client application's ID and secret and the
 * service account key files.
 *
 * @example
 * ```ts
 * import { type SandboxCredentials, startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox();
 * const credentials: SandboxCredentials = sandbox.credentials;
 * const keyFile = credentials.keyFile();
 * console.log(credentials.clientId, keyFile?.keyId);
 * ```
 */
export class SandboxCredentials {
  /** Client ID of the registered client application. */
  readonly clientId: string;
  readonly #clientSecret: string;
  /** Service accounts, one per organization of the dataset, in dataset order. */
  readonly serviceAccounts: readonly ServiceAccount[];

  constructor(clientId: string, clientSecret: string, serviceAccounts: readonly ServiceAccount[]) {
    this.clientId = clientId;
    this.#clientSecret = clientSecret;
    this.serviceAccounts = serviceAccounts;
  }

  /**
   * Client secret of the registered client application.
   */
  get clientSecret(): string {
    return this.#clientSecret;
  }

  /**
   * The key file of a service account: the first organization's unless one is named by service
   * account ID.
   */
  keyFile(serviceAccountId?: string): ServiceAccountKeyFile | undefined {
    const account =
      serviceAccountId === undefined
        ? this.serviceAccounts[0]
        : this.serviceAccounts.find((a) => a.serviceAccountId === serviceAccountId);
    return account?.keyFile();
  }

  toJSON(): Record<string, unknown> {
    return { clientId: this.clientId, clientSecret: "[redacted]", serviceAccounts: this.serviceAccounts };
  }

  [INSPECT](): string {
    return `SandboxCredentials ${JSON.stringify(this.toJSON())}`;
  }
}

/**
 * An organization as far as credentials go: its service account and, when the data file brings its own
 * key pair, the public key.
 */
export interface OrganizationKeySource {
  readonly id: string;
  readonly serviceAccountId: string;
  readonly serviceAccountKey?: { readonly keyId: string; readonly publicKeyPem: string };
}

/**
 * Makes the service account keys: imports the public key a data file gives, or generates a fresh
 * RSA 2048 key pair.
 */
export async function createServiceAccounts(
  organizations: readonly OrganizationKeySource[],
): Promise<ServiceAccount[]> {
  return Promise.all(
    organizations.map(async (org, index) => {
      if (org.serviceAccountKey) {
        let publicKey: CryptoKey;
        try {
          publicKey = await importSPKI(org.serviceAccountKey.publicKeyPem, "RS256");
        } catch (error) {
          throw new SandboxOptionError(
            `organization ${org.id}: serviceAccountKey.publicKeyPem is not an RSA public key in PEM (SPKI): ${(error as Error).message}`,
          );
        }
        return new ServiceAccount({
          organizationId: org.id,
          serviceAccountId: org.serviceAccountId,
          keyId: org.serviceAccountKey.keyId,
          publicKey,
          privateKeyPem: undefined,
        });
      }
      const pair = await generatedKeyPair(index);
      return new ServiceAccount({
        organizationId: org.id,
        serviceAccountId: org.serviceAccountId,
        keyId: randomUuid(),
        publicKey: pair.publicKey,
        privateKeyPem: pair.privateKeyPem,
      });
    }),
  );
}

interface GeneratedKeyPair {
  readonly publicKey: CryptoKey;
  readonly privateKeyPem: string;
}

/**
 * RSA key pairs made in this process, by organization position. Making one takes a few hundred
 * milliseconds, far more than the rest of a start, so every sandbox of a process reuses them (a test
 * suite starting a sandbox per test pays once). Each sandbox still names its keys with fresh key IDs,
 * so an assertion made for one sandbox is refused by another.
 */
const keyPairs = new Map<number, Promise<GeneratedKeyPair>>();

function generatedKeyPair(index: number): Promise<GeneratedKeyPair> {
  let pair = keyPairs.get(index);
  if (pair === undefined) {
    pair = (async () => {
      const made = await generateKeyPair("RS256", { modulusLength: 2048, extractable: true });
      return { publicKey: made.publicKey, privateKeyPem: await exportPKCS8(made.privateKey) };
    })();
    // A failure is not kept: the next start tries again.
    pair.catch(() => keyPairs.delete(index));
    keyPairs.set(index, pair);
  }
  return pair;
}
