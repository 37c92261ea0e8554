/**
 * Writes the credentials of a running sandbox where other tools can pick them up:
 * `service-account.json` (the key file) and `client.env` (`DRILL_*` variables, shell-sourceable).
 * Both hold secrets, so both are written with mode 0600 (owner only), in a directory of the current
 * user that is made 0700; a directory that is a symbolic link or belongs to someone else is refused.
 */
import { randomBytes } from "node:crypto";
import { chmod, lstat, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { CredentialsFilesError } from "../errors.js";
import type { SandboxCredentials } from "./credentials.js";

/**
 * File name of the key file inside the credentials directory.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { KEY_FILE_NAME, startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ credentialsDir: "./.sandbox" });
 * // The service account's key file, for DRILL_KEY_FILE or `serviceAccountAuth({ keyFile })`.
 * const keyFile = join("./.sandbox", KEY_FILE_NAME); // ./.sandbox/service-account.json
 * ```
 */
export const KEY_FILE_NAME = "service-account.json";

/**
 * File name of the environment file inside the credentials directory.
 *
 * @example
 * ```ts
 * import { join } from "node:path";
 * import { ENV_FILE_NAME, startSandbox } from "@drill-practice/sandbox";
 *
 * const sandbox = await startSandbox({ credentialsDir: "./.sandbox" });
 * // Load it into a shell with: set -a; . ./.sandbox/client.env; set +a
 * const envFile = join("./.sandbox", ENV_FILE_NAME); // ./.sandbox/client.env
 * ```
 */
export const ENV_FILE_NAME = "client.env";

/** Value quoting that both POSIX `sh` and dotenv-style parsers read the same way. */
function envValue(name: string, value: string): string {
  if (/^[A-Za-z0-9_./:@%+,=-]+$/.test(value)) return value;
  if (/['\n\r]/.test(value)) {
    throw new CredentialsFilesError(
      `${name}: contains a quote or a line break and cannot go into ${ENV_FILE_NAME}`,
    );
  }
  return `'${value}'`;
}

async function writeSecret(path: string, content: string): Promise<void> {
  // Written under an unguessable temporary name that must not exist yet ("wx": no symlink followed, no
  // file someone else prepared reused), then renamed: a reader never sees half a file, and whatever sat
  // at `path` (a looser file, a symlink) is replaced rather than written through.
  const temporary = `${path}.${randomBytes(12).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, content, { mode: 0o600, flag: "wx" });
    // The umask may have taken bits away, never added any; this makes the mode exact.
    await chmod(temporary, 0o600);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * `mkdir -p`, one level at a time from the deepest directory that exists. Node 20's recursive
 * mkdir never settles for a path it cannot create under /proc (it retries ENOENT forever);
 * one level at a time, the platform's refusal comes back at once.
 */
async function makeDirectories(root: string): Promise<void> {
  const missing: string[] = [];
  for (let path = root; ; path = dirname(path)) {
    const exists = await lstat(path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return false;
        throw error;
      },
    );
    if (exists) break;
    missing.unshift(path);
    if (dirname(path) === path) break;
  }
  for (const path of missing) {
    await mkdir(path, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
      // Made by someone else meanwhile: checked below like any existing directory.
      if (error.code !== "EEXIST") throw error;
    });
  }
}

/** Makes sure `root` is a real directory of the current user, then makes it owner-only (0700). */
async function secureDirectory(root: string): Promise<void> {
  await makeDirectories(root);
  const info = await lstat(root);
  if (info.isSymbolicLink()) {
    throw new CredentialsFilesError(
      `${root}: is a symbolic link; the credentials directory must be a real directory`,
    );
  }
  if (!info.isDirectory()) {
    throw new CredentialsFilesError(`${root}: is not a directory`);
  }
  const uid = process.getuid?.();
  if (uid !== undefined && info.uid !== uid) {
    throw new CredentialsFilesError(
      `${root}: belongs to user ${info.uid}, not to the current user ${uid}; the credentials directory must be owned by the user running the sandbox`,
    );
  }
  // mkdir's mode applies only to a directory it creates; an existing one is tightened here.
  await chmod(root, 0o700);
}

/**
 * Writes the credentials files and returns their absolute paths. `keyFile` is `undefined` when the
 * dataset brought its own public key (the sandbox then has no private key to write), and `client.env`
 * then leaves out `DRILL_KEY_FILE`.
 */
export async function writeCredentialsFiles(
  dir: string,
  source: { readonly baseUrl: string; readonly credentials: SandboxCredentials },
): Promise<{ keyFile: string | undefined; envFile: string }> {
  const root = resolve(dir);
  try {
    await secureDirectory(root);
    const key = source.credentials.keyFile();
    let keyFile: string | undefined;
    if (key) {
      keyFile = join(root, KEY_FILE_NAME);
      await writeSecret(keyFile, `${JSON.stringify(key, null, 2)}\n`);
    }
    const lines = [
      "# Written by drill-sandbox; valid while that sandbox runs. Load with: set -a; . ./client.env; set +a",
      `DRILL_BASE_URL=${envValue("DRILL_BASE_URL", source.baseUrl)}`,
      `DRILL_CLIENT_ID=${envValue("DRILL_CLIENT_ID", source.credentials.clientId)}`,
      `DRILL_CLIENT_SECRET=${envValue("DRILL_CLIENT_SECRET", source.credentials.clientSecret)}`,
      ...(keyFile ? [`DRILL_KEY_FILE=${envValue("DRILL_KEY_FILE", keyFile)}`] : []),
    ];
    const envFile = join(root, ENV_FILE_NAME);
    await writeSecret(envFile, `${lines.join("\n")}\n`);
    return { keyFile, envFile };
  } catch (error) {
    if (error instanceof CredentialsFilesError) throw error;
    throw new CredentialsFilesError(`cannot write credentials to ${root}: ${(error as Error).message}`);
  }
}
