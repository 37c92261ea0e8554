/**
 * Errors of two installed copies of auth (each with its own copy of the
 * client), bundled by a minifier that renames every class: `name` and `code`
 * stay what the classes state, a concrete class matches across the copies by
 * code, and the `KeyFileError` family by its own brand.
 */
import { describeMinifiedErrors } from "@drill-practice/tooling/minified-errors";

const consumer = `import * as a from "./a.js";
import * as b from "./b.js";
const syntax = await a.parseServiceAccountKey("not json").then(() => undefined, (error) => error);
const discovery = new a.DiscoveryError("HTTP 404", { url: "https://drill.example/.well-known/oauth-authorization-server", attempts: 1 });
const aborted = new a.TokenRequestAbortedError(new Error("stop"));
console.log(JSON.stringify({
  renamed: a.KeyFileSyntaxError.name !== "KeyFileSyntaxError" && a.KeyFileError !== b.KeyFileError,
  syntax: [syntax.name, syntax.code, a.KeyFileSyntaxError.code],
  syntaxAcross: [syntax instanceof b.KeyFileSyntaxError, syntax instanceof b.KeyFileError, syntax instanceof b.DrillError],
  syntaxNotOther: [syntax instanceof b.KeyFileFieldError, syntax instanceof b.DiscoveryError],
  discovery: [discovery.name, discovery.code, discovery instanceof b.DiscoveryError, discovery instanceof b.KeyFileError],
  aborted: [aborted.name, aborted.code, aborted instanceof b.TokenRequestAbortedError],
}));
`;

describeMinifiedErrors({
  packageDir: new URL("..", import.meta.url),
  alongside: { "@drill-practice/client": "client" },
  consumer,
  renamedClass: "KeyFileError",
  expected: {
    renamed: true,
    syntax: ["KeyFileSyntaxError", "ERR_KEY_FILE_NOT_JSON", "ERR_KEY_FILE_NOT_JSON"],
    syntaxAcross: [true, true, true],
    syntaxNotOther: [false, false],
    discovery: ["DiscoveryError", "ERR_DISCOVERY", true, false],
    aborted: ["AbortError", "ERR_ABORTED", true],
  },
});
