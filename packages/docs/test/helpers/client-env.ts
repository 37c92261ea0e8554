import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The variables of the `client.env` a sandbox writes to its credentials folder, quotes taken off:
 * what a reader's shell gets from `set -a; . client.env`.
 */
export async function readClientEnv(credentialsDir: string): Promise<Record<string, string>> {
  const text = await readFile(join(credentialsDir, "client.env"), "utf8");
  return Object.fromEntries(
    text
      .split("\n")
      .map((line) => /^([A-Z_]+)=(.*)$/.exec(line.trim()))
      .filter((match): match is RegExpExecArray => match !== null)
      .map((match) => [match[1] as string, (match[2] as string).replace(/^"(.*)"$/, "$1")]),
  );
}
