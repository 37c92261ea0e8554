/**
 * Builds the default dataset that `scripts/default-data-write.ts` writes to `data/default.json`. Not part
 * of the package's code: the sandbox reads the written file through the same loader as `--data` files.
 */

import { DEFAULT_IDS } from "../../src/data/default-ids.js";
import { Prng } from "../../src/domain/random.js";
import type {
  Catalog,
  Course,
  Drill,
  DrillItem,
  Group,
  Organization,
  PracticeData,
  SandboxData,
  User,
} from "../../src/domain/types.js";
import { COURSE_TYPE, DRILL_TYPE } from "../../src/domain/types.js";
import {
  COMPOUNDS,
  COUNTRIES,
  ELEMENTS,
  FRACTIONS,
  HIGHEST_PEAKS,
  HISTORY,
  LANGUAGES,
  MOONS,
  MOUNTAINS,
  PLANETS,
  RIVERS,
  SI_UNITS,
  VOCABULARY,
} from "./dataset-lists.js";

/**
 * Seed of the embedded dataset. Changing it changes the mixed drills and descriptions.
 */
export const DEFAULT_DATASET_SEED = 20_240_601;

/** Number of drills in the embedded dataset. */
const DRILL_COUNT = 300;

type DrillInput = Omit<Drill, "type" | "inStore"> & { inStore?: boolean };

class DrillList {
  readonly drills: Drill[] = [];
  private readonly ids = new Set<string>();

  add(input: DrillInput): Drill {
    if (this.ids.has(input.id)) throw new Error(`dataset: duplicate drill ID ${input.id}`);
    this.ids.add(input.id);
    const drill: Drill = { ...input, type: DRILL_TYPE, inStore: input.inStore ?? true };
    this.drills.push(drill);
    return drill;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

function century(year: number): string {
  return `${ordinal(Math.floor((year - 1) / 100) + 1)} century`;
}

const ROMAN: readonly (readonly [number, string])[] = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

function roman(n: number): string {
  let rest = n;
  let out = "";
  for (const [value, letters] of ROMAN) {
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  }
  return out;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function spellCount(n: number): string {
  const words = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
  ];
  return words[n] ?? String(n);
}

function addLanguageDrills(list: DrillList, rng: Prng): void {
  const descriptions = [
    (n: number, level: string, title: string, from: string, to: string) =>
      `${capitalize(spellCount(n))} ${level} words about ${title}. You see the ${from} word and pick the ${to} one.`,
    (n: number, level: string, title: string, from: string, to: string) =>
      `Learn ${n} words about ${title} (${level} level): recognise the ${to} meaning of each ${from} word.`,
    (n: number, level: string, title: string, from: string, to: string) =>
      `Practise ${title} vocabulary from ${from} to ${to}; ${n} ${level} items with articles where they apply.`,
  ];
  LANGUAGES.forEach((language, column) => {
    const lang = language.name;
    for (const theme of VOCABULARY) {
      const pairs = theme.rows.map((row) => ({ en: row[0], word: row[column + 1] as string }));
      const tags = [...new Set([lang.toLowerCase(), "vocabulary", theme.key, theme.level])];
      const inStore = theme.level !== "business";
      const describe = rng.pick(descriptions);
      list.add({
        id: `${language.code}-${theme.key}-to-en`,
        name: `${lang} vocabulary: ${theme.title} (${lang} → English)`,
        subject: lang,
        description: describe(pairs.length, theme.level, theme.title, lang, "English"),
        tags,
        inStore,
        askName: lang,
        tellName: "English",
        items: pairs.map((p) => ({ ask: p.word, tell: p.en })),
      });
      list.add({
        id: `${language.code}-${theme.key}-from-en`,
        name: `${lang} vocabulary: ${theme.title} (English → ${lang})`,
        subject: lang,
        description: describe(pairs.length, theme.level, theme.title, "English", lang),
        tags,
        inStore,
        askName: "English",
        tellName: lang,
        items: pairs.map((p) => ({ ask: p.en, tell: p.word })),
      });
    }
    const everyday = VOCABULARY.filter((theme) => theme.level !== "business").flatMap((theme) =>
      theme.rows.map((row) => ({ en: row[0], word: row[column + 1] as string })),
    );
    for (let k = 1; k <= 4; k++) {
      const toEnglish = k % 2 === 1;
      const picked = rng.sample(everyday, 15);
      list.add({
        id: `${language.code}-review-${k}`,
        name: `${lang} vocabulary review ${k}`,
        subject: lang,
        description: `Fifteen words picked from all everyday ${lang} themes, ${toEnglish ? `${lang} to English` : `English to ${lang}`}.`,
        tags: [lang.toLowerCase(), "vocabulary", "review", "mixed"],
        askName: toEnglish ? lang : "English",
        tellName: toEnglish ? "English" : lang,
        items: picked.map((p) => (toEnglish ? { ask: p.word, tell: p.en } : { ask: p.en, tell: p.word })),
      });
    }
  });
}

function addGeographyDrills(list: DrillList, rng: Prng): void {
  const all: { country: string; capital: string; continent: string }[] = [];
  for (const [continent, rows] of Object.entries(COUNTRIES)) {
    const key = continent.toLowerCase();
    for (const [country, capital] of rows) all.push({ country, capital, continent });
    list.add({
      id: `geo-capitals-${key}`,
      name: `Capitals of ${continent}`,
      subject: "Geography",
      description: `Name the capital city of ${rows.length} countries in ${continent}.`,
      tags: ["geography", "capitals", key],
      askName: "Country",
      tellName: "Capital",
      items: rows.map(([country, capital]) => ({ ask: country, tell: capital })),
    });
    list.add({
      id: `geo-countries-${key}`,
      name: `Countries of ${continent} by capital`,
      subject: "Geography",
      description: `Given a capital city in ${continent}, pick the country it governs.`,
      tags: ["geography", "countries", key],
      askName: "Capital",
      tellName: "Country",
      items: rows.map(([country, capital]) => ({ ask: capital, tell: country })),
    });
  }
  const shuffled = rng.shuffle(all.slice());
  const part = Math.ceil(shuffled.length / 3);
  for (let k = 0; k < 3; k++) {
    list.add({
      id: `geo-continents-${k + 1}`,
      name: `Countries and their continents, part ${k + 1}`,
      subject: "Geography",
      description: "Which continent is the country in? Continents as used in the capitals drills.",
      tags: ["geography", "countries", "continents"],
      askName: "Country",
      tellName: "Continent",
      items: shuffled.slice(k * part, (k + 1) * part).map((c) => ({ ask: c.country, tell: c.continent })),
    });
  }
  list.add({
    id: "geo-rivers-continent",
    name: "Great rivers of the world: continents",
    subject: "Geography",
    description: "On which continent does the river flow? The Nile, the Amazon, the Danube and more.",
    tags: ["geography", "rivers", "continents"],
    askName: "River",
    tellName: "Continent",
    items: RIVERS.map(([river, continent]) => ({ ask: river, tell: continent })),
  });
  list.add({
    id: "geo-rivers-mouth",
    name: "Great rivers of the world: where they end",
    subject: "Geography",
    description: "Name the sea, gulf or ocean each river flows into.",
    tags: ["geography", "rivers", "seas"],
    askName: "River",
    tellName: "Flows into",
    items: RIVERS.map(([river, , mouth]) => ({ ask: river, tell: mouth })),
  });
  list.add({
    id: "geo-mountain-ranges",
    name: "Famous mountains and their ranges",
    subject: "Geography",
    description: "From Mont Blanc to Denali: which mountain range is each peak part of?",
    tags: ["geography", "mountains"],
    askName: "Mountain",
    tellName: "Range",
    items: MOUNTAINS.map(([mountain, range]) => ({ ask: mountain, tell: range })),
  });
  list.add({
    id: "geo-highest-peaks",
    name: "Highest peak of every continent",
    subject: "Geography",
    description: "The seven summits: the highest mountain of each continent.",
    tags: ["geography", "mountains", "continents"],
    askName: "Continent",
    tellName: "Highest peak",
    items: HIGHEST_PEAKS.map(([continent, peak]) => ({ ask: continent, tell: peak })),
  });
  for (let k = 1; k <= 8; k++) {
    list.add({
      id: `geo-world-capitals-${k}`,
      name: `World capitals mix ${k}`,
      subject: "Geography",
      description: "Fifteen countries from every continent; name each capital.",
      tags: ["geography", "capitals", "world", "mixed"],
      askName: "Country",
      tellName: "Capital",
      items: rng.sample(all, 15).map((c) => ({ ask: c.country, tell: c.capital })),
    });
  }
}

function addScienceDrills(list: DrillList): void {
  const numbered = ELEMENTS.map(([symbol, name], i) => ({ symbol, name, number: i + 1 }));
  for (let from = 0; from < numbered.length; from += 20) {
    const chunk = numbered.slice(from, from + 20);
    const first = chunk[0]?.number ?? 0;
    const last = chunk[chunk.length - 1]?.number ?? 0;
    const range = `${first}–${last}`;
    const tags = ["chemistry", "elements", "periodic table"];
    list.add({
      id: `chem-elements-${first}-${last}-symbols`,
      name: `Element symbols: atomic numbers ${range}`,
      subject: "Chemistry",
      description: `Give the chemical symbol of elements ${range} of the periodic table.`,
      tags: [...tags, "symbols"],
      askName: "Element",
      tellName: "Symbol",
      items: chunk.map((e) => ({ ask: e.name, tell: e.symbol })),
    });
    list.add({
      id: `chem-elements-${first}-${last}-names`,
      name: `Element names: atomic numbers ${range}`,
      subject: "Chemistry",
      description: `Which element has this symbol? Elements ${range}.`,
      tags: [...tags, "names"],
      askName: "Symbol",
      tellName: "Element",
      items: chunk.map((e) => ({ ask: e.symbol, tell: e.name })),
    });
    list.add({
      id: `chem-elements-${first}-${last}-numbers`,
      name: `Atomic numbers of elements ${range}`,
      subject: "Chemistry",
      description: `Match each element ${range} with its atomic number (number of protons).`,
      tags: [...tags, "atomic numbers"],
      askName: "Element",
      tellName: "Atomic number",
      items: chunk.map((e) => ({ ask: e.name, tell: String(e.number) })),
    });
  }
  list.add({
    id: "chem-elements-all-symbols",
    name: "All 118 element symbols",
    subject: "Chemistry",
    description: "The complete periodic table in one drill: element name to symbol.",
    tags: ["chemistry", "elements", "periodic table", "symbols", "complete"],
    askName: "Element",
    tellName: "Symbol",
    items: numbered.map((e) => ({ ask: e.name, tell: e.symbol })),
  });
  list.add({
    id: "chem-compounds",
    name: "Formulas of everyday compounds",
    subject: "Chemistry",
    description: "Water, table salt, baking soda and more: write down the formula.",
    tags: ["chemistry", "compounds", "formulas"],
    askName: "Compound",
    tellName: "Formula",
    items: COMPOUNDS.map(([compound, formula]) => ({ ask: compound, tell: formula })),
  });
  list.add({
    id: "chem-formulas",
    name: "Everyday compounds from their formulas",
    subject: "Chemistry",
    description: "Read a chemical formula and name the compound.",
    tags: ["chemistry", "compounds", "formulas"],
    askName: "Formula",
    tellName: "Compound",
    items: COMPOUNDS.map(([compound, formula]) => ({ ask: formula, tell: compound })),
  });
  list.add({
    id: "astro-planet-order",
    name: "Planets in order from the Sun",
    subject: "Astronomy",
    description: "Place each planet of the Solar System by its distance from the Sun.",
    tags: ["astronomy", "planets", "solar system"],
    askName: "Planet",
    tellName: "Position from the Sun",
    items: PLANETS.map(([planet], i) => ({ ask: planet, tell: ordinal(i + 1) })),
  });
  list.add({
    id: "astro-planet-kinds",
    name: "Rocky planets, gas giants and ice giants",
    subject: "Astronomy",
    description: "Sort the eight planets into rocky planets, gas giants and ice giants.",
    tags: ["astronomy", "planets", "solar system"],
    askName: "Planet",
    tellName: "Kind",
    items: PLANETS.map(([planet, kind]) => ({ ask: planet, tell: kind })),
  });
  list.add({
    id: "astro-moons",
    name: "Moons of the Solar System",
    subject: "Astronomy",
    description: "Io, Titan, Triton and others: which body does each moon orbit?",
    tags: ["astronomy", "moons", "solar system"],
    askName: "Moon",
    tellName: "Orbits",
    items: MOONS.map(([moon, planet]) => ({ ask: moon, tell: planet })),
  });
  list.add({
    id: "phys-si-units",
    name: "SI units of physical quantities",
    subject: "Physics",
    description: "Name the SI unit of force, energy, pressure and other quantities.",
    tags: ["physics", "units", "si"],
    askName: "Quantity",
    tellName: "SI unit",
    items: SI_UNITS.map(([quantity, unit]) => ({ ask: quantity, tell: unit })),
  });
  list.add({
    id: "phys-si-symbols",
    name: "Symbols of SI units",
    subject: "Physics",
    description: "Write the symbol of each SI unit, minding capital letters.",
    tags: ["physics", "units", "si", "symbols"],
    askName: "Unit",
    tellName: "Symbol",
    items: SI_UNITS.map(([, unit, symbol]) => ({ ask: unit, tell: symbol })),
  });
  list.add({
    id: "phys-si-quantities",
    name: "What does this SI unit measure?",
    subject: "Physics",
    description: "From the name of an SI unit to the quantity it measures.",
    tags: ["physics", "units", "si", "quantities"],
    askName: "Unit",
    tellName: "Quantity",
    items: SI_UNITS.map(([quantity, unit]) => ({ ask: unit, tell: quantity })),
  });
}

function addHistoryDrills(list: DrillList, rng: Prng): void {
  const all: { event: string; year: number }[] = [];
  for (const theme of HISTORY) {
    for (const [event, year] of theme.events) all.push({ event, year });
    list.add({
      id: `hist-${theme.key}-years`,
      name: `${theme.title}: years`,
      subject: "History",
      description: `${theme.events.length} key events of ${theme.title.toLowerCase()}; give the year of each.`,
      tags: ["history", "dates", theme.key],
      askName: "Event",
      tellName: "Year",
      items: theme.events.map(([event, year]) => ({ ask: event, tell: String(year) })),
    });
    // Only themes that span enough centuries make a useful multiple-choice drill.
    if (new Set(theme.events.map(([, year]) => century(year))).size < 4) continue;
    list.add({
      id: `hist-${theme.key}-centuries`,
      name: `${theme.title}: centuries`,
      subject: "History",
      description: `Place the events of ${theme.title.toLowerCase()} in the right century.`,
      tags: ["history", "centuries", theme.key],
      askName: "Event",
      tellName: "Century",
      items: theme.events.map(([event, year]) => ({ ask: event, tell: century(year) })),
    });
  }
  list.add({
    id: "hist-all-centuries",
    name: "Two thousand years: centuries",
    subject: "History",
    description:
      "Every event of the history drills, from the fall of Rome to the Treaty of Lisbon: name the century.",
    tags: ["history", "centuries", "mixed"],
    askName: "Event",
    tellName: "Century",
    items: all.map((e) => ({ ask: e.event, tell: century(e.year) })),
  });
  for (let k = 1; k <= 5; k++) {
    list.add({
      id: `hist-mixed-${k}`,
      name: `History dates quiz ${k}`,
      subject: "History",
      description: "Twelve events from two thousand years of history, in random order.",
      tags: ["history", "dates", "mixed"],
      askName: "Event",
      tellName: "Year",
      items: rng.sample(all, 12).map((e) => ({ ask: e.event, tell: String(e.year) })),
    });
  }
}

function addMathsDrills(list: DrillList, rng: Prng): void {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  for (const n of range(1, 20)) {
    list.add({
      id: `math-times-${n}`,
      name: `Times table of ${n}`,
      subject: "Mathematics",
      description: `Multiply ${n} by 1 to 12.`,
      tags: ["mathematics", "multiplication", "times tables", n <= 12 ? "primary" : "secondary"],
      askName: "Problem",
      tellName: "Answer",
      items: range(1, 12).map((k) => ({ ask: `${n} × ${k}`, tell: String(n * k) })),
    });
  }
  for (let k = 1; k <= 10; k++) {
    const seen = new Set<string>();
    const items: DrillItem[] = [];
    while (items.length < 15) {
      const a = 2 + rng.int(11);
      const b = 2 + rng.int(11);
      const ask = `${a} × ${b}`;
      if (seen.has(ask)) continue;
      seen.add(ask);
      items.push({ ask, tell: String(a * b) });
    }
    list.add({
      id: `math-times-mixed-${k}`,
      name: `Mixed times tables ${k}`,
      subject: "Mathematics",
      description: "Fifteen products from the tables of 2 to 12 in random order.",
      tags: ["mathematics", "multiplication", "times tables", "mixed"],
      askName: "Problem",
      tellName: "Answer",
      items,
    });
  }
  for (const n of range(2, 12)) {
    list.add({
      id: `math-divide-${n}`,
      name: `Dividing by ${n}`,
      subject: "Mathematics",
      description: `Divide multiples of ${n} up to ${n * 12} by ${n}.`,
      tags: ["mathematics", "division"],
      askName: "Problem",
      tellName: "Answer",
      items: range(1, 12).map((k) => ({ ask: `${n * k} ÷ ${n}`, tell: String(k) })),
    });
  }
  const powers = [
    {
      id: "math-squares",
      name: "Squares from 1 to 25",
      description: "Square every whole number from 1 to 25.",
      items: range(1, 25).map((k) => ({ ask: `${k} squared`, tell: String(k * k) })),
    },
    {
      id: "math-cubes",
      name: "Cubes from 1 to 12",
      description: "Cube every whole number from 1 to 12.",
      items: range(1, 12).map((k) => ({ ask: `${k} cubed`, tell: String(k * k * k) })),
    },
    {
      id: "math-square-roots",
      name: "Square roots of perfect squares",
      description: "Take the square root of the perfect squares up to 400.",
      items: range(1, 20).map((k) => ({ ask: `square root of ${k * k}`, tell: String(k) })),
    },
    {
      id: "math-powers-of-two",
      name: "Powers of two",
      description: "From 2^0 to 2^16: the numbers every programmer meets.",
      items: range(0, 16).map((k) => ({ ask: `2^${k}`, tell: String(2 ** k) })),
    },
  ];
  for (const p of powers) {
    list.add({
      ...p,
      subject: "Mathematics",
      tags: ["mathematics", "powers"],
      askName: "Problem",
      tellName: "Answer",
    });
  }
  list.add({
    id: "math-fractions",
    name: "Fractions as percentages",
    subject: "Mathematics",
    description: "Turn common fractions into percentages.",
    tags: ["mathematics", "fractions", "percentages"],
    askName: "Fraction",
    tellName: "Percentage",
    items: FRACTIONS.map(([fraction, percentage]) => ({ ask: fraction, tell: percentage })),
  });
  list.add({
    id: "math-percentages",
    name: "Percentages as fractions",
    subject: "Mathematics",
    description: "Write a percentage as a simple fraction.",
    tags: ["mathematics", "fractions", "percentages"],
    askName: "Percentage",
    tellName: "Fraction",
    items: FRACTIONS.map(([fraction, percentage]) => ({ ask: percentage, tell: fraction })),
  });
  const numbers = [...range(1, 20), 40, 50, 90, 99, 100, 400, 500, 900, 1000, 1492, 1789, 1999, 2024];
  list.add({
    id: "math-roman-numerals",
    name: "Reading Roman numerals",
    subject: "Mathematics",
    description: "Read Roman numerals from I to MMXXIV.",
    tags: ["mathematics", "roman numerals"],
    askName: "Roman numeral",
    tellName: "Number",
    items: numbers.map((n) => ({ ask: roman(n), tell: String(n) })),
  });
  list.add({
    id: "math-to-roman",
    name: "Writing Roman numerals",
    subject: "Mathematics",
    description: "Write numbers from 1 to 2024 in Roman numerals.",
    tags: ["mathematics", "roman numerals"],
    askName: "Number",
    tellName: "Roman numeral",
    items: numbers.map((n) => ({ ask: String(n), tell: roman(n) })),
  });
}

/** Tops the list up to the target count with practice sets drawn from the curated pools. */
function addPracticeSets(list: DrillList, rng: Prng, target: number): void {
  const everyday = VOCABULARY.filter((theme) => theme.level !== "business");
  const pools: {
    key: string;
    name: string;
    subject: string;
    tags: string[];
    askName: string;
    tellName: string;
    items: DrillItem[];
  }[] = [
    ...LANGUAGES.map((language, column) => ({
      key: `${language.code}-practice`,
      name: `${language.name} word practice`,
      subject: language.name,
      tags: [language.name.toLowerCase(), "vocabulary", "practice set"],
      askName: language.name,
      tellName: "English",
      items: everyday.flatMap((theme) =>
        theme.rows.map((row) => ({ ask: row[column + 1] as string, tell: row[0] })),
      ),
    })),
    {
      key: "geo-practice",
      name: "Capital cities practice",
      subject: "Geography",
      tags: ["geography", "capitals", "practice set"],
      askName: "Country",
      tellName: "Capital",
      items: Object.values(COUNTRIES).flatMap((rows) =>
        rows.map(([country, capital]) => ({ ask: country, tell: capital })),
      ),
    },
    {
      key: "chem-practice",
      name: "Element symbols practice",
      subject: "Chemistry",
      tags: ["chemistry", "elements", "practice set"],
      askName: "Element",
      tellName: "Symbol",
      items: ELEMENTS.map(([symbol, name]) => ({ ask: name, tell: symbol })),
    },
    {
      key: "hist-practice",
      name: "History dates practice",
      subject: "History",
      tags: ["history", "dates", "practice set"],
      askName: "Event",
      tellName: "Year",
      items: HISTORY.flatMap((theme) =>
        theme.events.map(([event, year]) => ({ ask: event, tell: String(year) })),
      ),
    },
  ];
  const counters = new Map<string, number>();
  let turn = 0;
  while (list.drills.length < target) {
    const pool = pools[turn++ % pools.length] as (typeof pools)[number];
    const k = (counters.get(pool.key) ?? 0) + 1;
    counters.set(pool.key, k);
    const size = 10 + rng.int(6);
    list.add({
      id: `${pool.key}-set-${k}`,
      name: `${pool.name} set ${k}`,
      subject: pool.subject,
      description: `${capitalize(spellCount(size))} randomly chosen items for a short ${pool.subject.toLowerCase()} session.`,
      tags: pool.tags,
      askName: pool.askName,
      tellName: pool.tellName,
      items: rng.sample(pool.items, size),
    });
  }
}

function course(
  id: string,
  name: string,
  subject: string,
  description: string,
  tags: string[],
  drillIds: string[],
  inStore = true,
): Course {
  return { id, type: COURSE_TYPE, name, subject, description, tags, inStore, drillIds };
}

function buildCourses(): Course[] {
  const beginner = VOCABULARY.filter((t) => t.level === "beginner").map((t) => t.key);
  const intermediate = VOCABULARY.filter((t) => t.level === "intermediate").map((t) => t.key);
  const courses: Course[] = [];
  for (const language of LANGUAGES) {
    const lower = language.name.toLowerCase();
    courses.push(
      course(
        `course-${language.code}-beginners`,
        `${language.name} for beginners`,
        language.name,
        `First ${language.name} words: animals, colours, food, family, the body, numbers and days.`,
        [lower, "vocabulary", "beginner", "course"],
        beginner.flatMap((key) => [`${language.code}-${key}-to-en`, `${language.code}-${key}-from-en`]),
      ),
      course(
        `course-${language.code}-intermediate`,
        `${language.name} next steps`,
        language.name,
        `Build on the basics with ${language.name} words for home, weather, travel, clothes and common verbs.`,
        [lower, "vocabulary", "intermediate", "course"],
        intermediate.flatMap((key) => [`${language.code}-${key}-to-en`, `${language.code}-${key}-from-en`]),
      ),
    );
  }
  courses.push(
    course(
      "course-business-languages",
      "Business vocabulary in four languages",
      "Languages",
      "Meetings, contracts and invoices in Spanish, French, German and Dutch. For Academy staff.",
      ["business", "vocabulary", "course"],
      LANGUAGES.flatMap((l) => [`${l.code}-business-to-en`, `${l.code}-business-from-en`]),
      false,
    ),
    course(
      "course-european-capitals",
      "European capitals",
      "Geography",
      "Every capital of Europe, both ways round.",
      ["geography", "capitals", "europe", "course"],
      ["geo-capitals-europe", "geo-countries-europe"],
    ),
    course(
      "course-world-capitals",
      "Capitals of the world",
      "Geography",
      "Capital cities continent by continent.",
      ["geography", "capitals", "world", "course"],
      Object.keys(COUNTRIES).map((c) => `geo-capitals-${c.toLowerCase()}`),
    ),
    course(
      "course-rivers-mountains",
      "Rivers and mountains",
      "Geography",
      "Great rivers, famous mountains and the highest peak of each continent.",
      ["geography", "rivers", "mountains", "course"],
      ["geo-rivers-continent", "geo-rivers-mouth", "geo-mountain-ranges", "geo-highest-peaks"],
    ),
    course(
      "course-periodic-table",
      "The periodic table",
      "Chemistry",
      "All 118 elements in blocks of twenty: symbols first, then names.",
      ["chemistry", "elements", "periodic table", "course"],
      [1, 21, 41, 61, 81, 101].flatMap((first) => {
        const last = Math.min(first + 19, ELEMENTS.length);
        return [`chem-elements-${first}-${last}-symbols`, `chem-elements-${first}-${last}-names`];
      }),
    ),
    course(
      "course-solar-system",
      "The Solar System",
      "Astronomy",
      "Planets in order, the kinds of planet, and their moons.",
      ["astronomy", "solar system", "course"],
      ["astro-planet-order", "astro-planet-kinds", "astro-moons"],
    ),
    course(
      "course-units-formulas",
      "Units and formulas",
      "Physics",
      "SI units with their symbols, and the formulas of everyday compounds.",
      ["physics", "chemistry", "units", "course"],
      ["phys-si-units", "phys-si-symbols", "phys-si-quantities", "chem-compounds"],
    ),
    course(
      "course-times-tables",
      "Times tables 1 to 12",
      "Mathematics",
      "All the times tables from 1 to 12.",
      ["mathematics", "multiplication", "times tables", "course"],
      Array.from({ length: 12 }, (_, i) => `math-times-${i + 1}`),
    ),
    course(
      "course-times-tables-advanced",
      "Times tables 13 to 20",
      "Mathematics",
      "For those who know 1 to 12 by heart.",
      ["mathematics", "multiplication", "times tables", "course"],
      Array.from({ length: 8 }, (_, i) => `math-times-${i + 13}`),
    ),
    course(
      "course-division",
      "Division facts",
      "Mathematics",
      "Dividing by 2 to 12.",
      ["mathematics", "division", "course"],
      Array.from({ length: 11 }, (_, i) => `math-divide-${i + 2}`),
    ),
    course(
      "course-powers-roots",
      "Squares, cubes and roots",
      "Mathematics",
      "Squares, cubes, square roots and powers of two.",
      ["mathematics", "powers", "course"],
      ["math-squares", "math-cubes", "math-square-roots", "math-powers-of-two"],
    ),
    course(
      "course-history-dates",
      "Key dates in history",
      "History",
      "From the fall of Rome to the European Union, plus milestones of science.",
      ["history", "dates", "course"],
      HISTORY.map((theme) => `hist-${theme.key}-years`),
    ),
  );
  return courses;
}

function buildPeople(): { organizations: Organization[]; users: User[]; groups: Group[] } {
  const org = DEFAULT_IDS.organization;
  const ids = DEFAULT_IDS.users;
  const users: User[] = [
    {
      id: DEFAULT_IDS.serviceAccount,
      name: "Sandbox Academy integration",
      emails: [],
      thirdPartyIds: [],
      organizationId: org,
    },
    {
      id: ids.ana,
      name: "Ana García",
      emails: ["ana.garcia@academy.example"],
      // The second names its third party, as API 2.1.1 writes it (`/api/2.1.1/user/ACME/2058392`).
      thirdPartyIds: ["hr-1001", "ACME$2058392"],
      organizationId: org,
    },
    {
      id: ids.bram,
      name: "Bram de Vries",
      emails: ["bram.devries@academy.example"],
      thirdPartyIds: ["hr-1002"],
      organizationId: org,
    },
    {
      id: ids.chloe,
      name: "Chloé Martin",
      emails: ["chloe.martin@academy.example"],
      thirdPartyIds: ["hr-1003"],
      organizationId: org,
    },
    {
      id: ids.dieter,
      name: "Dieter Schmidt",
      emails: ["dieter.schmidt@academy.example"],
      thirdPartyIds: ["hr-1004", "lms-77"],
      organizationId: org,
    },
    {
      id: ids.emma,
      name: "Emma Jones",
      emails: ["emma.jones@academy.example", "emma@home.example"],
      thirdPartyIds: ["hr-1005"],
      organizationId: org,
    },
    {
      id: ids.olivia,
      name: "Olivia Okafor",
      emails: ["olivia@partner-school.example"],
      thirdPartyIds: ["partner-42"],
    },
  ];
  return {
    organizations: [
      {
        id: org,
        name: "Sandbox Academy",
        serviceAccountId: DEFAULT_IDS.serviceAccount,
        // The service account manages every group anyway; Dieter is a teacher who may look at all of them.
        staff: [{ userId: ids.dieter, permission: "VIEW" }],
      },
    ],
    users,
    groups: [
      {
        id: DEFAULT_IDS.group,
        name: "Spanish A1 class",
        description: "Beginners' Spanish, Monday evenings",
        organizationId: org,
        memberIds: [ids.ana, ids.bram, ids.chloe],
        drillableIds: ["course-es-beginners", "es-animals-to-en", "es-colours-to-en"],
        staff: [{ userId: ids.emma, permission: "MANAGE" }],
      },
    ],
  };
}

function buildCatalogs(): Catalog[] {
  const ids = DEFAULT_IDS.users;
  return [
    {
      id: DEFAULT_IDS.catalogs.business,
      name: "Sandbox Academy: business languages",
      drillableIds: [
        ...LANGUAGES.flatMap((l) => [`${l.code}-business-to-en`, `${l.code}-business-from-en`]),
        "course-business-languages",
      ],
      userIds: [DEFAULT_IDS.serviceAccount, ids.ana, ids.bram, ids.chloe],
    },
    {
      id: DEFAULT_IDS.catalogs.teachers,
      name: "Sandbox Academy: teacher picks",
      drillableIds: [
        "es-animals-to-en",
        "fr-verbs-from-en",
        "de-travel-to-en",
        "nl-food-to-en",
        "geo-capitals-europe",
        "hist-twentieth-years",
        "math-times-7",
        "course-solar-system",
      ],
      userIds: [DEFAULT_IDS.serviceAccount, ids.dieter],
    },
    {
      id: DEFAULT_IDS.catalogs.partner,
      name: "Partner school: exam preparation",
      drillableIds: [
        "hist-revolutions-years",
        "hist-europe-years",
        "chem-elements-1-20-symbols",
        "de-business-to-en",
        "course-history-dates",
      ],
      userIds: [ids.olivia, ids.emma],
    },
  ];
}

/**
 * The embedded default dataset: 300 drills and 20 courses in Spanish, French, German, Dutch,
 * geography, chemistry, astronomy, physics, history and mathematics; one organization with its service
 * account, five managed users, one user outside the organization, three catalogs, one group with an
 * objective, and practice of two of its members on the objective's drills.
 * Built fresh on every call and fully determined by the seed.
 */
export function createDefaultDataset(seed: number = DEFAULT_DATASET_SEED): SandboxData {
  const rng = new Prng(seed);
  const list = new DrillList();
  addLanguageDrills(list, rng);
  addGeographyDrills(list, rng);
  addScienceDrills(list);
  addHistoryDrills(list, rng);
  addMathsDrills(list, rng);
  addPracticeSets(list, rng, DRILL_COUNT);
  const people = buildPeople();
  return {
    organizations: people.organizations,
    users: people.users,
    drills: list.drills,
    courses: buildCourses(),
    catalogs: buildCatalogs(),
    groups: people.groups,
    // An objective of the group, so the objective and results operations answer right away.
    objectives: [
      {
        id: "objective-spanish-a1",
        groupId: DEFAULT_IDS.group,
        type: "ONEOFF",
        reviewDate: "2030-06-30T00:00:00.000Z",
        minimumProficiency: 60,
        drillIds: ["es-animals-to-en", "es-colours-to-en"],
      },
    ],
    practice: buildPractice(),
  };
}

/**
 * Practice done before the sandbox starts, so the objective and the group's results differ per member
 * right away: Ana meets the objective (average overall 72.5 against a minimum of 60), Bram does not
 * (37.5), and Chloé has not practised at all.
 */
function buildPractice(): PracticeData[] {
  const { ana, bram } = DEFAULT_IDS.users;
  return [
    {
      userId: ana,
      drillId: "es-animals-to-en",
      answerCount: 24,
      correctCount: 20,
      receptive: 85,
      productive: 65,
    },
    {
      userId: ana,
      drillId: "es-colours-to-en",
      answerCount: 18,
      correctCount: 15,
      receptive: 80,
      productive: 60,
    },
    {
      userId: bram,
      drillId: "es-animals-to-en",
      answerCount: 12,
      correctCount: 6,
      receptive: 50,
      productive: 30,
    },
    {
      userId: bram,
      drillId: "es-colours-to-en",
      answerCount: 10,
      correctCount: 5,
      receptive: 45,
      productive: 25,
    },
  ];
}
