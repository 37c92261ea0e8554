/** One use of a package binary in a shell command of the site or a README. */
export interface BinaryUse {
  /** Where it was found, e.g. `README.md` or `v2.1 getSession_v2_1 (curl)`. */
  source: string;
  /** The command line as written (continuations joined). */
  line: string;
  bin: string;
  /** How the binary is run: `npx -p <package>`, `pnpm exec`, bare `npx`, or nothing at all. */
  runner: { kind: "npx-p"; pkg: string } | { kind: "pnpm-exec" } | { kind: "npx" } | { kind: "bare" };
  /** The arguments after the binary, up to the end of the simple command. */
  args: string[];
}

const entities: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", apos: "'" };

/**
 * The code blocks of an HTML page as shell text: `<pre><code>` contents with markup removed and
 * entities decoded.
 */
export function htmlCodeBlocks(html: string): string[] {
  return [...html.matchAll(/<pre[^>]*>\s*<code[^>]*>([\s\S]*?)<\/code>\s*<\/pre>/g)].map((match) =>
    (match[1] ?? "")
      .replace(/<[^>]+>/g, "")
      .replace(
        /&(#?\w+);/g,
        (whole, name: string) =>
          entities[name] ?? (name.startsWith("#") ? String.fromCharCode(Number(name.slice(1))) : whole),
      ),
  );
}

/**
 * The fenced shell blocks (```sh, ```bash, ```shell, ```console) of a Markdown file.
 */
export function markdownShellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:sh|bash|shell|console)\s*\n([\s\S]*?)^```/gm)].map(
    (match) => match[1] ?? "",
  );
}

const commandEnd = new Set(["|", "||", "&&", ";", ">", "2>", "&"]);

/**
 * Finds every use of one of `bins` in shell text, with how it is run and its arguments.
 * Comments are skipped; a backslash continues a line.
 */
export function findBinaryUses(shell: string, bins: readonly string[], source: string): BinaryUse[] {
  const uses: BinaryUse[] = [];
  const lines = shell.replace(/\\\n\s*/g, " ").split("\n");
  for (const raw of lines) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const code = line.replace(/\s#\s.*$/, "");
    const tokens = code.split(/\s+/);
    tokens.forEach((token, index) => {
      const bare = token.replace(/^["'(`$]+|["')`]+$/g, "").replace(/^\$\(/, "");
      if (!bins.includes(bare)) return;
      // A command substitution starts a new command: `TOKEN="$(npx` is `npx`.
      const before = tokens.slice(0, index).map((t) => t.replace(/^.*\$\(/, "").replace(/^["'`(]+/, ""));
      let runner: BinaryUse["runner"] = { kind: "bare" };
      if (before.at(-3) === "npx" && before.at(-2) === "-p")
        runner = { kind: "npx-p", pkg: before.at(-1) ?? "" };
      else if (before.at(-2) === "pnpm" && before.at(-1) === "exec") runner = { kind: "pnpm-exec" };
      else if (before.at(-1) === "npx") runner = { kind: "npx" };
      const args: string[] = [];
      for (const next of tokens.slice(index + 1)) {
        if (commandEnd.has(next)) break;
        const ends = /[)`]["']?$/.test(next) && !/^["']?\$\(/.test(next);
        const cleaned = next.replace(/[)`]["']?$/, "");
        if (cleaned !== "") args.push(cleaned.replace(/^["']|["']$/g, ""));
        if (ends || token.endsWith(")") || token.endsWith(')"')) break;
      }
      uses.push({ source, line, bin: bare, runner, args: token.match(/\)["']?$/) ? [] : args });
    });
  }
  return uses;
}
