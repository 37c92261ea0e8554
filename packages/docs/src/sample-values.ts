import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/**
 * A value the reader has to bring from an earlier call; samples read it from an environment
 * variable and say where it comes from.
 */
export interface ReaderValue {
  /** Environment variable the samples read, e.g. `REFERENCE`. */
  env: string;
  /** Where to get it, in a few words. */
  hint: string;
}

/** Example values for parameters, by parameter name. */
export interface SampleValues {
  /** Literal values that exist in the sandbox's built-in dataset. */
  literal: Readonly<Record<string, string>>;
  /** Values only an earlier answer can give. */
  fromReader: Readonly<Record<string, ReaderValue>>;
}

interface Dataset {
  drills: { id: string; subject?: string }[];
  courses: { id: string }[];
  catalogs: { id: string }[];
  organizations: { id: string }[];
  groups: { id: string }[];
  users: { id: string; emails?: string[] }[];
}

function firstId(list: { id: string }[] | undefined, what: string): string {
  const id = list?.[0]?.id;
  if (typeof id !== "string") throw new Error(`the sandbox dataset has no ${what}`);
  return id;
}

/**
 * Builds the example values of the code samples from the sandbox's built-in dataset, so a
 * sample pasted into a shell next to `drill-sandbox` addresses something that exists there.
 *
 * @example
 * const values = sampleValuesFromDataset(JSON.parse(await readFile("data/example.json", "utf8")));
 * values.literal.drill; // "pt-greetings"
 */
export function sampleValuesFromDataset(dataset: Dataset): SampleValues {
  const drill = firstId(dataset.drills, "drill");
  const course = firstId(dataset.courses, "course");
  const person = dataset.users.find((user) => (user.emails ?? []).length > 0);
  if (!person) throw new Error("the sandbox dataset has no user with an email address");
  const user = person.id;
  const literal: Record<string, string> = {
    drill,
    drill_id: drill,
    drillable: drill,
    playable: drill,
    course,
    course_id: course,
    catalog: firstId(dataset.catalogs, "catalog"),
    organization: firstId(dataset.organizations, "organization"),
    organization_id: firstId(dataset.organizations, "organization"),
    group: firstId(dataset.groups, "group"),
    group_id: firstId(dataset.groups, "group"),
    user,
    user_id: user,
    user_reference: user,
    user_id_or_ticket: user,
    email: person.emails?.[0] ?? "",
    // Words that find the drill above in a store search.
    query: (dataset.drills[0]?.subject ?? drill).toLowerCase(),
  };
  return {
    literal,
    fromReader: {
      reference: { env: "REFERENCE", hint: "the `reference` of a question you were given" },
    },
  };
}

/**
 * Reads the dataset the sandbox serves by default (`data/example.json` of
 * `@drill-practice/sandbox`) and derives the sample values from it.
 *
 * @example
 * const values = await loadSampleValues();
 */
export async function loadSampleValues(): Promise<SampleValues> {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve("@drill-practice/sandbox/package.json")), "data", "example.json");
  return sampleValuesFromDataset(JSON.parse(await readFile(file, "utf8")) as Dataset);
}

/**
 * A readable stand-in for a parameter nothing else names a value for: `test_id` becomes
 * `test-1`.
 *
 * @example
 * placeholderValue("payment_provider"); // "payment-provider-1"
 */
export function placeholderValue(name: string): string {
  return `${name.replace(/_id$/, "").replace(/_/g, "-")}-1`;
}
