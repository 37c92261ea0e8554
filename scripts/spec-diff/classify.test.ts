/**
 * Every kind of change the issue lists, made on the small fixture document once in a request and
 * once in an answer where it applies, classified as a consumer of the generated types feels it.
 */
import { describe, expect, it } from "vitest";
import { classifyChanges, type Finding, type Severity } from "./classify.ts";
import { type PracticeApi, practiceApi } from "./fixtures/practice-api.ts";

type Fields = Record<string, Record<string, unknown>>;
interface Sided {
  /** The object schema of that side (`Answer` for the request, `Evaluation` for the answer). */
  schema: { required: string[]; properties: Fields; [key: string]: unknown };
  /** The `content` map of that side (the request body's, the 200 answer's). */
  content: Record<string, unknown>;
}
const operation = (doc: PracticeApi) => doc.paths["/api/answer/{reference}"].put;
function side(doc: PracticeApi, which: "request" | "answer"): Sided {
  const schemas = doc.components.schemas as unknown as Record<string, Sided["schema"]>;
  return which === "request"
    ? { schema: schemas.Answer as Sided["schema"], content: operation(doc).requestBody.content }
    : { schema: schemas.Evaluation as Sided["schema"], content: operation(doc).responses["200"].content };
}
const field = (s: Sided, name: string) => s.schema.properties[name] as Record<string, unknown>;

/** A change made on both sides, with its expected class on each ("-" where it does not apply). */
interface SidedCase {
  kind: string;
  edit: (s: Sided) => void;
  request: Severity;
  answer: Severity;
  /** The rule that must classify it, when one of ours (the library gets it wrong). */
  own?: string;
  /** Words the reason must contain on the breaking side(s). */
  says?: RegExp;
}

const sidedCases: SidedCase[] = [
  {
    kind: "x-observed note added on a field",
    edit: (s) => {
      field(s, "tag")["x-observed"] = "seen in a recording";
    },
    request: "documentation",
    answer: "documentation",
    own: "extension",
  },
  {
    kind: "known values named on an open string",
    edit: (s) => {
      field(s, "tag")["x-known-values"] = ["LOW", "HIGH"];
    },
    request: "non-breaking",
    answer: "non-breaking",
    own: "extension",
  },
  {
    kind: "field removed",
    edit: (s) => delete s.schema.properties.level,
    request: "breaking",
    answer: "breaking",
    own: "field-removed",
    says: /removed field `level`/,
  },
  {
    kind: "optional field added",
    edit: (s) => {
      s.schema.properties.extra = { type: "string" };
    },
    request: "non-breaking",
    answer: "non-breaking",
  },
  {
    kind: "required field added",
    edit: (s) => {
      s.schema.properties.extra = { type: "string" };
      s.schema.required.push("extra");
    },
    request: "breaking",
    answer: "non-breaking",
  },
  {
    kind: "field becomes required",
    edit: (s) => s.schema.required.push("level"),
    request: "breaking",
    answer: "non-breaking",
    says: /required/,
  },
  {
    kind: "field becomes optional",
    edit: (s) => {
      s.schema.required = s.schema.required.filter((name) => name !== "name");
    },
    request: "non-breaking",
    answer: "breaking",
    says: /optional.*strictNullChecks/,
  },
  {
    kind: "field becomes nullable",
    edit: (s) => {
      field(s, "tag").type = ["string", "null"];
    },
    request: "non-breaking",
    answer: "breaking",
    own: "type-changed",
    says: /nullable/,
  },
  {
    kind: "type widened",
    edit: (s) => {
      field(s, "level").type = ["integer", "string"];
    },
    request: "non-breaking",
    answer: "breaking",
    own: "type-changed",
    says: /widened/,
  },
  {
    kind: "type changed",
    edit: (s) => {
      field(s, "level").type = "string";
    },
    request: "breaking",
    answer: "breaking",
    own: "type-changed",
    says: /type changed/,
  },
  {
    kind: "type narrowed (null dropped)",
    edit: (s) => {
      field(s, "note").type = "string";
    },
    request: "breaking",
    answer: "non-breaking",
    own: "type-changed",
    says: /narrowed/,
  },
  {
    kind: "enum value added",
    edit: (s) => {
      field(s, "kind").enum = ["DRILL", "SINGLE", "MULTIPLE_CHOICE"];
    },
    request: "non-breaking",
    answer: "breaking",
    says: /exhaustive switch/,
  },
  {
    kind: "enum value removed",
    edit: (s) => {
      field(s, "kind").enum = ["DRILL"];
    },
    request: "breaking",
    answer: "non-breaking",
    says: /removed accepted value/,
  },
  {
    kind: "value set closed (enum added)",
    edit: (s) => {
      field(s, "tag").enum = ["x", "y"];
    },
    request: "breaking",
    answer: "non-breaking",
    own: "value-set-opened-or-closed",
    says: /closed to a list/,
  },
  {
    kind: "value set opened (enum removed)",
    edit: (s) => {
      delete field(s, "kind").enum;
    },
    request: "non-breaking",
    answer: "breaking",
    own: "value-set-opened-or-closed",
    says: /no longer limited/,
  },
  {
    kind: "maxLength lowered",
    edit: (s) => {
      field(s, "name").maxLength = 10;
    },
    request: "breaking",
    answer: "non-breaking",
    says: /tightened constraint/,
  },
  {
    kind: "maxLength raised",
    edit: (s) => {
      field(s, "name").maxLength = 80;
    },
    request: "non-breaking",
    answer: "non-breaking",
  },
  {
    kind: "minimum raised",
    edit: (s) => {
      field(s, "level").minimum = 3;
    },
    request: "breaking",
    answer: "non-breaking",
    says: /tightened constraint/,
  },
  {
    kind: "pattern added",
    edit: (s) => {
      field(s, "tag").pattern = "^[a-z]+$";
    },
    request: "breaking",
    answer: "non-breaking",
    says: /tightened constraint/,
  },
  {
    kind: "object closed (additionalProperties: false)",
    edit: (s) => {
      s.schema.additionalProperties = false;
    },
    request: "breaking",
    answer: "non-breaking",
    own: "additional-properties-closed",
  },
  {
    kind: "media type removed",
    edit: (s) => {
      const [type] = Object.keys(s.content);
      delete s.content[type as string];
      s.content["text/plain"] = { schema: { type: "string" } };
    },
    request: "breaking",
    answer: "breaking",
    says: /removed media type/,
  },
  {
    kind: "media type added",
    edit: (s) => {
      s.content["multipart/form-data"] = { schema: { type: "object" } };
    },
    request: "non-breaking",
    answer: "non-breaking",
  },
  {
    kind: "field description changed",
    edit: (s) => {
      field(s, "name").description = "The learner's answer, as typed.";
    },
    request: "documentation",
    answer: "documentation",
  },
  {
    kind: "example added",
    edit: (s) => {
      field(s, "tag").examples = ["verbs"];
    },
    request: "documentation",
    answer: "documentation",
  },
];

/** A change that has one side only (parameters, statuses, the operation). */
interface OneCase {
  kind: string;
  edit: (doc: PracticeApi) => void;
  severity: Severity;
  side: Finding["side"];
  own?: string;
  says?: RegExp;
}
type Parameter = { name: string; in: string; required?: boolean; schema: Record<string, unknown> };
const parameters = (doc: PracticeApi) => operation(doc).parameters as Parameter[];
const mode = (doc: PracticeApi) => parameters(doc)[0] as Parameter;

const oneSidedCases: OneCase[] = [
  {
    kind: "required parameter added",
    edit: (d) => {
      parameters(d).push({ name: "lang", in: "query", required: true, schema: { type: "string" } });
    },
    severity: "breaking",
    side: "request",
    says: /new required parameter/,
  },
  {
    kind: "optional parameter added",
    edit: (d) => {
      parameters(d).push({ name: "lang", in: "query", schema: { type: "string" } });
    },
    severity: "non-breaking",
    side: "request",
  },
  {
    kind: "parameter removed",
    edit: (d) => {
      parameters(d).splice(0, 1);
    },
    severity: "breaking",
    side: "request",
    says: /removed parameter/,
  },
  {
    kind: "parameter becomes required",
    edit: (d) => {
      mode(d).required = true;
    },
    severity: "breaking",
    side: "request",
    says: /required/,
  },
  {
    kind: "parameter becomes optional",
    edit: (d) => {
      const p = d.paths["/api/answer/{reference}"].parameters[0] as Parameter;
      p.required = false;
      mode(d).required = false;
    },
    severity: "non-breaking",
    side: "request",
  },
  {
    kind: "parameter value removed",
    edit: (d) => {
      mode(d).schema.enum = ["quick"];
    },
    severity: "breaking",
    side: "request",
    says: /removed accepted value/,
  },
  {
    kind: "parameter value added",
    edit: (d) => {
      mode(d).schema.enum = ["quick", "full", "none"];
    },
    severity: "non-breaking",
    side: "request",
  },
  {
    kind: "request body becomes required",
    edit: (d) => {
      (operation(d).requestBody as Record<string, unknown>).required = true;
    },
    severity: "breaking",
    side: "request",
  },
  {
    kind: "status removed",
    edit: (d) => {
      delete (operation(d).responses as Record<string, unknown>)["404"];
    },
    severity: "breaking",
    side: "answer",
    says: /removed status/,
  },
  {
    kind: "status added",
    edit: (d) => {
      (operation(d).responses as Record<string, unknown>)["409"] = { description: "Conflict." };
    },
    severity: "non-breaking",
    side: "answer",
  },
  {
    kind: "operation removed",
    edit: (d) => {
      delete (d.paths as Record<string, unknown>)["/api/store"];
    },
    severity: "breaking",
    side: "operation",
    says: /removed operation/,
  },
  {
    kind: "operation added",
    edit: (d) => {
      (d.paths["/api/store"] as Record<string, unknown>).post = {
        operationId: "createStoreEntry",
        responses: { "200": { description: "ok" } },
      };
    },
    severity: "non-breaking",
    side: "operation",
  },
  {
    kind: "operationId renamed",
    edit: (d) => {
      operation(d).operationId = "saveAnswer";
    },
    severity: "breaking",
    side: "operation",
    own: "operationId-renamed",
    says: /operations/,
  },
  {
    kind: "operation deprecated",
    edit: (d) => {
      (operation(d) as Record<string, unknown>).deprecated = true;
    },
    severity: "non-breaking",
    side: "operation",
    own: "deprecated",
  },
  {
    kind: "summary changed",
    edit: (d) => {
      operation(d).summary = "Store the learner's answer";
    },
    severity: "documentation",
    side: "operation",
  },
  {
    kind: "x-undocumented note added",
    edit: (d) => {
      (operation(d) as Record<string, unknown>)["x-undocumented"] = ["status codes"];
    },
    severity: "documentation",
    side: "operation",
  },
];

function expectOne(
  findings: Finding[],
  severity: Severity,
  expected: { side: Finding["side"]; own?: string; says?: RegExp },
) {
  // A change may show as more than one difference (e.g. a media type removed and another added):
  // its class is the most severe one, which must be on the expected side.
  const order: Severity[] = ["breaking", "non-breaking", "documentation"];
  const worst = [...findings].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity))[0];
  expect(worst, JSON.stringify(findings, null, 2)).toBeDefined();
  expect(worst?.severity, JSON.stringify(findings, null, 2)).toBe(severity);
  expect(worst?.side).toBe(expected.side);
  expect(worst?.pointer).toMatch(/^\/paths\//);
  if (expected.own) expect(worst?.rule).toBe(`own: ${expected.own}`);
  if (expected.says && severity === "breaking") expect(worst?.reason).toMatch(expected.says);
}

describe("classifyChanges: a change in a request and in an answer", () => {
  for (const item of sidedCases) {
    for (const which of ["request", "answer"] as const) {
      it(`${item.kind} in ${which === "request" ? "a request" : "an answer"} is ${item[which]}`, () => {
        const after = practiceApi();
        item.edit(side(after, which));
        const findings = classifyChanges(practiceApi(), after);
        expectOne(findings, item[which], {
          side: which,
          ...(item.own !== undefined && item[which] !== "documentation" ? { own: item.own } : {}),
          ...(item.says ? { says: item.says } : {}),
        });
        // The operation's operationId names the change, so a changeset can name it.
        expect(findings[0]?.names).toContain("storeAnswer");
      });
    }
  }
});

describe("classifyChanges: parameters, statuses and operations", () => {
  for (const item of oneSidedCases) {
    it(`${item.kind} is ${item.severity}`, () => {
      const after = practiceApi();
      item.edit(after);
      expectOne(classifyChanges(practiceApi(), after), item.severity, item);
    });
  }
});

describe("classifyChanges: pointers, values and grouping", () => {
  it("reports the JSON pointer through the operation, old and new value, and groups by operation", () => {
    const after = practiceApi();
    field(side(after, "request"), "name").maxLength = 10;
    const [finding] = classifyChanges(practiceApi(), after);
    expect(finding).toMatchObject({
      group: "PUT /api/answer/{reference} (storeAnswer)",
      pointer:
        "/paths/~1api~1answer~1{reference}/put/requestBody/content/application~1x-www-form-urlencoded/schema/properties/name/maxLength",
      before: 40,
      after: 10,
      rule: "api-smart-diff",
    });
  });

  it("names both operationIds of a rename", () => {
    const after = practiceApi();
    operation(after).operationId = "saveAnswer";
    const [finding] = classifyChanges(practiceApi(), after);
    // Naming the method and path is not enough: the key of `operations` is what changed.
    expect(finding?.names).toEqual(["storeAnswer", "saveAnswer"]);
  });

  it("follows answers under a status range written 2XX (api-smart-diff alone only walks into 2xx)", () => {
    const ranged = () => {
      const doc = practiceApi();
      const responses = operation(doc).responses as Record<string, unknown>;
      responses["2XX"] = responses["200"];
      delete responses["200"];
      return doc;
    };
    const after = ranged();
    delete side(after, "request").schema.properties.level;
    delete (after.components.schemas.Evaluation.properties as Record<string, unknown>).level;
    const answer = classifyChanges(ranged(), after).filter((finding) => finding.side === "answer");
    expect(answer).toHaveLength(1);
    const [required] = classifyChanges(
      ranged(),
      (() => {
        const doc = ranged();
        doc.components.schemas.Evaluation.required = ["kind"];
        return doc;
      })(),
    );
    expect(required?.reason).toMatch(/in Response 2XX content/);
    expect(answer[0]).toMatchObject({
      severity: "breaking",
      pointer:
        "/paths/~1api~1answer~1{reference}/put/responses/2XX/content/application~1json/schema/properties/level",
    });
  });

  it("counts a new tag or tag group as documentation, not a break (the types carry no tag)", () => {
    const before = practiceApi();
    const after = { ...practiceApi(), tags: [{ name: "v9-new", description: "New." }], "x-tagGroups": [] };
    const findings = classifyChanges(before, after);
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.map((finding) => [finding.severity, finding.rule])).toEqual(
      findings.map(() => ["documentation", "own: tags"]),
    );
  });

  it("calls a renamed path template breaking, named by both templates and its operationIds", () => {
    const after = practiceApi();
    const paths = after.paths as Record<string, unknown>;
    const item = paths["/api/answer/{reference}"] as { parameters: { name: string }[] };
    (item.parameters[0] as { name: string }).name = "answerId";
    paths["/api/answer/{answerId}"] = item;
    delete paths["/api/answer/{reference}"];
    const findings = classifyChanges(practiceApi(), after);
    expect(findings.map((finding) => [finding.severity, finding.rule])).toEqual([
      ["breaking", "own: path-renamed"],
      ["breaking", "own: parameter-renamed"],
    ]);
    expect(findings[0]).toMatchObject({
      pointer: "/paths",
      group: "/api/answer/{reference} → /api/answer/{answerId}",
      names: ["/api/answer/{reference}", "/api/answer/{answerId}", "storeAnswer"],
    });
    // The path's parameter is reported on each operation of the path, which names it.
    expect(findings[1]).toMatchObject({
      pointer: expect.stringMatching(/^\/paths\/~1api~1answer~1\{reference\}\/put\/parameters\/\d+\/name$/),
      names: ["storeAnswer", "PUT /api/answer/{reference}"],
    });
  });

  it("names a change inside a shared schema by the schema too", () => {
    const after = practiceApi();
    delete (after.components.schemas.Answer.properties as Record<string, unknown>).level;
    const [finding] = classifyChanges(practiceApi(), after);
    expect(finding?.names).toEqual(["storeAnswer", "PUT /api/answer/{reference}", "Answer"]);
  });

  it("finds nothing between equal documents", () => {
    expect(classifyChanges(practiceApi(), practiceApi())).toEqual([]);
  });
});
