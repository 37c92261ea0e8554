/**
 * Errors of two installed copies of the sandbox, bundled by a minifier that
 * renames every class: `name` and `code` stay what the classes state, a
 * concrete class matches across the copies by code, `SandboxError` by its brand.
 */
import { describeMinifiedErrors } from "@drill-practice/tooling/minified-errors";

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

describeMinifiedErrors({
  packageDir: new URL("..", import.meta.url),
  consumer,
  renamedClass: "SandboxOptionError",
  expected: {
    renamed: true,
    option: ["SandboxOptionError", "ERR_SANDBOX_OPTION_INVALID", "ERR_SANDBOX_OPTION_INVALID"],
    across: [true, true],
    notOther: [false, false],
    listen: ["ListenError", "ERR_SANDBOX_LISTEN", true],
    lookalike: false,
  },
});
