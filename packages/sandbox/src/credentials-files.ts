/**
 * Writes the credentials of a running sandbox where other tools can pick them up:
 * `service-account.json` (the key file) and `client.env` (`DRILL_*` variables, shell-sourceable).
 * Both hold secrets, so both are written with mode 0600 (owner only), in a directory made 0700 when
 * the sandbox creates it.
 */
import { chmod, mkdir, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { SandboxCredentials } from "./credentials.js";
import { CredentialsFilesError } from "./errors.js";

/**
 * File name of the key file inside the credentials directory.
 *
 * @example
 * const keyFile = join(dir, KEY_FILE_NAME);
 */
export const KEY_FILE_NAME = "service-account.json";

/**
 * File name of the environment file inside the credentials directory.
 *
 * @example
 * // set -a; . "$dir/client.env"; set +a
 * const envFile = join(dir, ENV_FILE_NAME);
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
  // Written under a temporary name and renamed, so a reader never sees half a file and an existing file
  // with looser permissions is replaced rather than reused.
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/**
 * Writes the credentials files and returns their absolute paths. `keyFile` is `undefined` when the
 * dataset brought its own public key (the sandbox then has no private key to write), and `client.env`
 * then leaves out `DRILL_KEY_FILE`.
 *
 * @example
 * const files = await writeCredentialsFiles("./.sandbox", { baseUrl: sandbox.url, credentials: sandbox.credentials });
 * console.log(files.envFile);
 */
export async function writeCredentialsFiles(
  dir: string,
  source: { readonly baseUrl: string; readonly credentials: SandboxCredentials },
): Promise<{ keyFile: string | undefined; envFile: string }> {
  const root = resolve(dir);
  try {
    await mkdir(root, { recursive: true, mode: 0o700 });
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
