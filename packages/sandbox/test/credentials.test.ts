import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { chmod, chown, lstat, mkdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { inspect, promisify } from "node:util";
import { scratchDirForEach } from "@drill-practice/tooling/scratch-hooks";
import { importPKCS8, SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import type { SandboxData } from "../src/index.js";
import {
  CredentialsFilesError,
  DataFileError,
  DataFileReadError,
  SandboxOptionError,
  startSandbox,
} from "../src/index.js";
import { GRANT, SMALL_DATA, start, tokenRequest } from "./support/helpers.js";

const dir = scratchDirForEach("sandbox-credentials-");

describe("credentials", () => {
  it("keeps secrets out of JSON.stringify and util.inspect", async () => {
    const sandbox = await start();
    const secret = sandbox.credentials.clientSecret;
    const privateKey = sandbox.credentials.keyFile()?.privateKey ?? "";
    expect(privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    for (const text of [
      JSON.stringify(sandbox.credentials),
      inspect(sandbox.credentials, { depth: 10, showHidden: true }),
      JSON.stringify(sandbox),
      inspect(sandbox, { depth: 10 }),
      String(sandbox.credentials),
    ]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(privateKey.split("\n")[1]);
    }
    expect(JSON.stringify(sandbox.credentials)).toContain(sandbox.credentials.clientId);
  });

  it("writes service-account.json and client.env with mode 0600", async () => {
    const sandbox = await start({ credentialsDir: join(dir(), "creds") });
    const files = sandbox.credentialsFiles;
    if (!files?.keyFile) throw new Error("no files written");
    for (const file of [files.keyFile, files.envFile]) {
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    }
    expect((await stat(join(dir(), "creds"))).mode & 0o777).toBe(0o700);

    const keyFile = JSON.parse(await readFile(files.keyFile, "utf8")) as Record<string, string>;
    expect(Object.keys(keyFile).sort()).toEqual(["keyId", "keyType", "privateKey", "serviceAccountId"]);
    expect(keyFile).toMatchObject({ serviceAccountId: "sa-1", keyType: "RSA_2048" });

    const env = await readFile(files.envFile, "utf8");
    expect(env).toContain(`DRILL_BASE_URL=${sandbox.url}\n`);
    expect(env).toContain(`DRILL_CLIENT_ID=${sandbox.credentials.clientId}\n`);
    expect(env).toContain(`DRILL_CLIENT_SECRET=${sandbox.credentials.clientSecret}\n`);
    expect(env).toContain(`DRILL_KEY_FILE=${files.keyFile}\n`);

    // The written files are enough to get a token, read the way a shell would.
    const { stdout } = await promisify(execFile)("sh", [
      "-c",
      'set -a; . "$1"; set +a; printf "%s\\n" "$DRILL_BASE_URL" "$DRILL_CLIENT_ID" "$DRILL_CLIENT_SECRET" "$DRILL_KEY_FILE"',
      "sh",
      files.envFile,
    ]);
    const [baseUrl, clientId, clientSecret, keyPath] = stdout.trim().split("\n");
    const written = JSON.parse(await readFile(keyPath ?? "", "utf8")) as Record<string, string>;
    const assertion = await new SignJWT({ sub: written.serviceAccountId, aud: `${baseUrl}/daas/oauth/token` })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: written.keyId ?? "" })
      .setIssuer(written.serviceAccountId ?? "")
      .setExpirationTime("5m")
      .sign(await importPKCS8(written.privateKey ?? "", "RS256"));
    const res = await fetch(`${baseUrl}/daas/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: GRANT,
        client_id: clientId ?? "",
        client_secret: clientSecret ?? "",
        assertion,
      }),
    });
    expect(res.status).toBe(200);
  });

  it("replaces an existing file with looser permissions", async () => {
    await writeFile(join(dir(), "client.env"), "old", { mode: 0o644 });
    const sandbox = await start({ credentialsDir: dir() });
    expect((await stat(join(dir(), "client.env"))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir(), "client.env"), "utf8")).toContain(sandbox.url);
  });

  it("does not write through a symlink at the target or at a predictable temporary name", async () => {
    const victim = join(dir(), "victim.txt");
    const victimTmp = join(dir(), "victim-tmp.txt");
    await writeFile(victim, "untouched", { mode: 0o644 });
    await writeFile(victimTmp, "untouched too", { mode: 0o644 });
    const creds = join(dir(), "creds");
    await mkdir(creds, { mode: 0o700 });
    await symlink(victim, join(creds, "client.env"));
    // The name the sandbox once used for its temporary file, prepared by someone else.
    await symlink(victimTmp, join(creds, `client.env.${process.pid}.tmp`));
    const sandbox = await start({ credentialsDir: creds });
    expect(await readFile(victim, "utf8")).toBe("untouched");
    expect(await readFile(victimTmp, "utf8")).toBe("untouched too");
    const written = await lstat(join(creds, "client.env"));
    expect(written.isSymbolicLink()).toBe(false);
    expect(written.mode & 0o777).toBe(0o600);
    expect(await readFile(join(creds, "client.env"), "utf8")).toContain(sandbox.credentials.clientSecret);
  });

  it("makes an existing directory owner-only (0700)", async () => {
    const creds = join(dir(), "open");
    await mkdir(creds);
    await chmod(creds, 0o755);
    await start({ credentialsDir: creds });
    expect((await stat(creds)).mode & 0o777).toBe(0o700);
  });

  it("refuses a credentials directory that is a symbolic link", async () => {
    const real = join(dir(), "real");
    await mkdir(real, { mode: 0o700 });
    await symlink(real, join(dir(), "link"));
    const error = await start({ credentialsDir: join(dir(), "link") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsFilesError);
    expect((error as Error).message).toBe(
      `${join(dir(), "link")}: is a symbolic link; the credentials directory must be a real directory`,
    );
  });

  it("refuses a credentials directory that belongs to another user", async () => {
    const uid = process.getuid?.();
    if (uid === undefined) throw new Error("this test needs a POSIX system");
    // Root can hand a fresh directory to someone else; anyone else finds one owned by root at "/".
    let foreign = "/";
    if (uid === 0) {
      foreign = join(dir(), "foreign");
      await mkdir(foreign, { mode: 0o755 });
      await chown(foreign, 65534, 65534);
    }
    const owner = (await stat(foreign)).uid;
    const error = await start({ credentialsDir: foreign }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CredentialsFilesError);
    expect((error as Error).message).toBe(
      `${foreign}: belongs to user ${owner}, not to the current user ${uid}; the credentials directory must be owned by the user running the sandbox`,
    );
    expect((await stat(foreign)).mode & 0o777).not.toBe(0o700);
  });

  it("fails clearly when the directory cannot be written", async () => {
    await writeFile(join(dir(), "a-file"), "");
    await expect(start({ credentialsDir: join(dir(), "a-file", "sub") })).rejects.toThrow(
      CredentialsFilesError,
    );
  });

  it("accepts a public key from the data and then writes no key file", async () => {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const publicKeyPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    const data: SandboxData = {
      ...SMALL_DATA,
      organizations: [
        {
          id: "org-1",
          name: "Test Academy",
          serviceAccountId: "sa-1",
          serviceAccountKey: { keyId: "my-key", publicKeyPem },
        },
      ],
    };
    const sandbox = await start({ data, credentialsDir: dir() });
    expect(sandbox.credentials.keyFile()).toBeUndefined();
    expect(sandbox.credentialsFiles?.keyFile).toBeUndefined();
    expect(await readFile(join(dir(), "client.env"), "utf8")).not.toContain("DRILL_KEY_FILE");

    const assertion = await new SignJWT({ sub: "u-ana", aud: sandbox.tokenEndpoint })
      .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "my-key" })
      .setIssuer("sa-1")
      .setExpirationTime("5m")
      .sign(pair.privateKey);
    expect((await tokenRequest(sandbox, { assertion })).status).toBe(200);
  });
});

describe("options", () => {
  it.each([
    [{ port: 70000 }, /^port: must be an integer from 0 to 65535$/],
    [{ port: 1.5 }, /^port: /],
    [{ tokenLifetimeSeconds: 0 }, /^tokenLifetimeSeconds: /],
    [{ clientSecret: "has space" }, /^clientSecret: /],
    [{ data: SMALL_DATA, dataFile: "x.json" }, /^data, dataFile: give one of them/],
    [{ seed: -1 }, /^seed: /],
  ])("refuses %o", async (options, message) => {
    await expect(startSandbox(options)).rejects.toThrow(SandboxOptionError);
    await expect(startSandbox(options)).rejects.toThrow(message);
  });

  it("reports data file problems with their location", async () => {
    await expect(startSandbox({ dataFile: join(dir(), "missing.json") })).rejects.toThrow(DataFileReadError);
    await writeFile(join(dir(), "bad.json"), JSON.stringify({ organizations: [], users: [], drills: [{}] }));
    const error = await startSandbox({ dataFile: join(dir(), "bad.json") }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataFileError);
    expect((error as DataFileError).message).toContain("$.drills[0]");
  });

  it("reads a data file", async () => {
    await writeFile(join(dir(), "data.json"), JSON.stringify(SMALL_DATA));
    const sandbox = await start({ data: undefined, dataFile: join(dir(), "data.json") });
    expect(sandbox.credentials.keyFile()?.serviceAccountId).toBe("sa-1");
  });

  it("reports a port in use", async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    await expect(startSandbox({ data: SMALL_DATA, port })).rejects.toThrow(/address already in use/);
  });
});
