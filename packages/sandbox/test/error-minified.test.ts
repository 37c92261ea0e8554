/**
 * Errors of two installed copies of the sandbox, bundled by a minifier that
 * renames every class: `name` and `code` stay what the classes state, a
 * concrete class matches across the copies by code, `SandboxError` by its brand.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runMinifiedCopies } from "../../../scripts/minified-copies.js";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

const consumer = `import * as a from "./a.js";
import * as b from "./b.js";
// startSandbox reads its files next to its module, which a bundle moves; the classes are what is checked.
const option = new a.SandboxOptionError("port: must be an integer from 0 to 65535");
const listen = new a.ListenError("cannot listen");
console.log(JSON.stringify({
  renamed: a.SandboxOptionError.name !== "SandboxOptionError" && a.SandboxError !== b.SandboxError,
  option: [option.name, option.code, a.SandboxOptionError.code],
  across: [option instanceof b.SandboxOptionError, option instanceof b.SandboxError],
  notOther: [option instanceof b.ListenError, listen instanceof b.SandboxOptionError],
  listen: [listen.name, listen.code, listen instanceof b.ListenError],
  lookalike: Object.assign(new Error("x"), { code: "ERR_SANDBOX_LISTEN" }) instanceof b.ListenError,
}));
`;

describe("errors of two installed copies, bundled with esbuild --minify", () => {
  it("keep their literal name and code and match by instanceof across the copies", async () => {
    const { stdout, bundle } = await runMinifiedCopies({
      packages: { "@drill-practice/sandbox": packageDir },
      entry: "@drill-practice/sandbox",
      consumer,
      nodePaths: [join(packageDir, "node_modules")],
    });
    expect(bundle).not.toMatch(/class SandboxOptionError\b/);
    expect(JSON.parse(stdout)).toEqual({
      renamed: true,
      option: ["SandboxOptionError", "ERR_SANDBOX_OPTION_INVALID", "ERR_SANDBOX_OPTION_INVALID"],
      across: [true, true],
      notOther: [false, false],
      listen: ["ListenError", "ERR_SANDBOX_LISTEN", true],
      lookalike: false,
    });
  }, 60_000);
});
