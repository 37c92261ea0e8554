import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { parseArgsProblem } from "../src/core/cli-usage.js";

function problem(args: string[]): string {
  try {
    parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: "string" },
        output: { type: "string", short: "o" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return parseArgsProblem(error, "drill-example");
  }
  throw new Error(`parseArgs accepted ${args.join(" ")}`);
}

describe("parseArgsProblem", () => {
  it.each([
    [["--bogus=secret-value"], "unknown option --bogus"],
    [["-x"], "unknown option -x"],
    [["--port"], "--port needs a value"],
    [["-o"], "--output needs a value"],
    [["a-secret-positional"], "drill-example takes no positional arguments"],
  ])("%j → %s", (args, expected) => {
    expect(problem(args)).toBe(expected);
  });

  it("says nothing of an error it does not know, not even its message", () => {
    expect(parseArgsProblem(new Error("token abc leaked"), "drill-example")).toBe("invalid arguments");
    expect(parseArgsProblem(undefined, "drill-example")).toBe("invalid arguments");
  });
});
