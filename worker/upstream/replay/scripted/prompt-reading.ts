/**
 * How the scripted model reads a prompt: the places whose time it asks for, the arithmetic in it,
 * the unit conversions and conversion tables, each with where it was found (so that the calls
 * follow the prompt's order). Deliberately small: it knows the phrasings of the demo ("What time is it in Tokyo?",
 * "What is 17% of 230?", "How many km is 26.2 mi?") and common variants, not language.
 *
 * @module
 */

/** Something the prompt asks for, and where it starts in the prompt. */
export type Ask =
  | { tool: "current_time"; at: number; zone: string }
  | { tool: "calculate"; at: number; expression: string }
  | { tool: "convert_units"; at: number; value: number; from: string; to: string }
  | { tool: "unit_table"; at: number; from: string; to: string; values?: number[] };

/** Cities (and a few countries) people ask the time of, with their IANA zones. */
const PLACES: Readonly<Record<string, string>> = {
  tokyo: "Asia/Tokyo",
  osaka: "Asia/Tokyo",
  japan: "Asia/Tokyo",
  seoul: "Asia/Seoul",
  beijing: "Asia/Shanghai",
  shanghai: "Asia/Shanghai",
  "hong kong": "Asia/Hong_Kong",
  singapore: "Asia/Singapore",
  bangkok: "Asia/Bangkok",
  delhi: "Asia/Kolkata",
  "new delhi": "Asia/Kolkata",
  mumbai: "Asia/Kolkata",
  india: "Asia/Kolkata",
  dubai: "Asia/Dubai",
  sydney: "Australia/Sydney",
  melbourne: "Australia/Melbourne",
  auckland: "Pacific/Auckland",
  london: "Europe/London",
  dublin: "Europe/Dublin",
  lisbon: "Europe/Lisbon",
  paris: "Europe/Paris",
  berlin: "Europe/Berlin",
  madrid: "Europe/Madrid",
  rome: "Europe/Rome",
  amsterdam: "Europe/Amsterdam",
  zurich: "Europe/Zurich",
  stockholm: "Europe/Stockholm",
  athens: "Europe/Athens",
  istanbul: "Europe/Istanbul",
  moscow: "Europe/Moscow",
  cairo: "Africa/Cairo",
  lagos: "Africa/Lagos",
  nairobi: "Africa/Nairobi",
  johannesburg: "Africa/Johannesburg",
  "new york": "America/New_York",
  "new york city": "America/New_York",
  nyc: "America/New_York",
  boston: "America/New_York",
  toronto: "America/Toronto",
  chicago: "America/Chicago",
  denver: "America/Denver",
  "los angeles": "America/Los_Angeles",
  "san francisco": "America/Los_Angeles",
  seattle: "America/Los_Angeles",
  vancouver: "America/Vancouver",
  "mexico city": "America/Mexico_City",
  "são paulo": "America/Sao_Paulo",
  "sao paulo": "America/Sao_Paulo",
  "buenos aires": "America/Argentina/Buenos_Aires",
  honolulu: "Pacific/Honolulu",
  utc: "UTC",
  gmt: "UTC",
};

/** Unit words and symbols, as the unit converter names them. Longest first, so "km/h" wins over "km". */
const UNIT_WORDS: readonly [RegExp, string][] = (
  [
    ["kilomet(?:er|re)s? per hour|km/h|kph", "km/h"],
    ["miles? per hour|mph", "mph"],
    ["met(?:er|re)s? per second|m/s", "m/s"],
    ["knots?|kn", "kn"],
    ["nautical miles?|nmi", "nmi"],
    ["millimet(?:er|re)s?|mm", "mm"],
    ["centimet(?:er|re)s?|cm", "cm"],
    ["kilomet(?:er|re)s?|kms?", "km"],
    ["met(?:er|re)s?|m", "m"],
    ["inch(?:es)?", "in"],
    ["feet|foot|ft", "ft"],
    ["yards?|yd", "yd"],
    ["miles?|mi", "mi"],
    ["milligrams?|mg", "mg"],
    ["kilograms?|kilos?|kgs?", "kg"],
    ["grams?|g", "g"],
    ["tonnes?|metric tons?", "t"],
    ["fluid ounces?|fl ?oz", "fl_oz"],
    ["ounces?|oz", "oz"],
    ["pounds?|lbs?", "lb"],
    ["stones?|st", "st"],
    ["millilit(?:er|re)s?|ml", "ml"],
    ["lit(?:er|re)s?|l", "l"],
    ["teaspoons?|tsp", "tsp"],
    ["tablespoons?|tbsp", "tbsp"],
    ["cups?", "cup"],
    ["pints?|pt", "pt"],
    ["quarts?|qt", "qt"],
    ["gallons?|gal", "gal"],
    ["seconds?|secs?", "s"],
    ["minutes?|mins?", "min"],
    ["hours?|hrs?", "h"],
    ["days?", "d"],
    ["weeks?|wks?", "wk"],
    ["°\\s?c|degrees? c(?:elsius)?|celsius|centigrade|c", "C"],
    ["°\\s?f|degrees? f(?:ahrenheit)?|fahrenheit|f", "F"],
    ["kelvins?|k", "K"],
  ] as const
).map(([words, symbol]) => [new RegExp(`^(?:${words})$`, "i"), symbol]);

const UNIT = "(?:°\\s?[cf]|degrees? [cf]\\w*|[a-z]+(?:/[a-z]+)?(?: per (?:hour|second))?(?: ?oz)?)";
const NUMBER = "(-?\\d+(?:[.,]\\d+)?)";
/** "10 km to miles", "100 °F in celsius", "convert 5 kg into pounds". */
const CONVERT = new RegExp(`${NUMBER}\\s*(${UNIT})\\s+(?:to|in|into|as)\\s+(${UNIT})`, "gi");
/** "how many km is a marathon (26.2 mi)", "how many pounds are 3 kg". */
const HOW_MANY = new RegExp(`how (?:many|much)\\s+(${UNIT})\\b[^?.;]*?${NUMBER}\\s*(${UNIT})`, "gi");
/** "a table of km to miles for 1, 5 and 10": the units, then whatever follows up to the sentence's end (a point before a digit is a decimal point, not an end). */
const TABLE = new RegExp(`\\btable of\\s+(${UNIT})\\s+(?:to|in|into)\\s+(${UNIT})((?:[^?.;]|\\.(?=\\d))*)`, "gi");
/** Most rows a table asks for (`unit_table` takes 12). */
const MAX_ROWS = 12;
/** "17% of 230". */
const PERCENT_OF = /(\d+(?:\.\d+)?)\s*%\s*of\s*(\d+(?:\.\d+)?)/gi;
/** "square root of 2". */
const ROOT_OF = /(?:square root|sqrt) of (\d+(?:\.\d+)?)/gi;
/** Arithmetic written out: numbers and parentheses with at least one operator between them. */
const EXPRESSION = /[(\s]*\d+(?:\.\d+)?[)\s]*(?:[-+*/^×÷][(\s]*\d+(?:\.\d+)?[)\s]*)+/g;
const TIME_WORDS = /\b(?:time|clock|o'clock|what day|date|hour is it)\b/i;

/** What the prompt asks for, in the order it asks. */
export function readPrompt(prompt: string): Ask[] {
  const asks = [...timeAsks(prompt), ...arithmeticAsks(prompt), ...conversionAsks(prompt), ...tableAsks(prompt)];
  return asks.sort((a, b) => a.at - b.at);
}

/** The IANA zone of a place the prompt names ("Tokyo", "new york"), or a zone written as one ("Europe/Paris"). */
export function zoneOf(name: string): string | undefined {
  if (/^[A-Z][A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?$/.test(name)) return name;
  const key = name.toLowerCase();
  return Object.hasOwn(PLACES, key) ? PLACES[key] : undefined;
}

function timeAsks(prompt: string): Ask[] {
  if (!TIME_WORDS.test(prompt)) return [];
  const lower = prompt.toLowerCase();
  const found: Ask[] = [];
  for (const [place, zone] of Object.entries(PLACES)) {
    const at = new RegExp(`\\b${place}\\b`).exec(lower)?.index;
    // "New York City" and "New York" are the same ask; the longer name is found too.
    if (at !== undefined && !found.some((ask) => ask.tool === "current_time" && ask.zone === zone))
      found.push({ tool: "current_time", at, zone });
  }
  for (const match of prompt.matchAll(/\b[A-Z][A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?\b/g)) {
    if (!found.some((ask) => ask.tool === "current_time" && ask.zone === match[0]))
      found.push({ tool: "current_time", at: match.index, zone: match[0] });
  }
  return found.length > 0 ? found : [{ tool: "current_time", at: TIME_WORDS.exec(prompt)?.index ?? 0, zone: "UTC" }];
}

function arithmeticAsks(prompt: string): Ask[] {
  const found: Ask[] = [];
  for (const match of prompt.matchAll(PERCENT_OF))
    found.push({ tool: "calculate", at: match.index, expression: `${match[2]} * ${match[1]} / 100` });
  for (const match of prompt.matchAll(ROOT_OF))
    found.push({ tool: "calculate", at: match.index, expression: `sqrt(${match[1]})` });
  const spelled = prompt.replace(
    /\b(plus|minus|times|multiplied by|divided by)\b/gi,
    (word) =>
      ({ plus: "+", minus: "-", times: "*", "multiplied by": "*", "divided by": "/" })[word.toLowerCase()] ?? word,
  );
  for (const match of spelled.matchAll(EXPRESSION)) {
    const expression = match[0].trim().replace(/×/g, "*").replace(/÷/g, "/");
    // A date (2026-11-23) is not a subtraction; parentheses must pair up.
    if (/^\d{4}-\d{2}-\d{2}$/.test(expression) || count(expression, "(") !== count(expression, ")")) continue;
    found.push({ tool: "calculate", at: match.index + match[0].indexOf(expression[0]!), expression });
  }
  return found;
}

function conversionAsks(prompt: string): Ask[] {
  const found: Ask[] = [];
  for (const match of prompt.matchAll(CONVERT)) {
    const [from, to] = [unit(match[2]!), unit(match[3]!)];
    if (from && to) found.push({ tool: "convert_units", at: match.index, value: number(match[1]!), from, to });
  }
  for (const match of prompt.matchAll(HOW_MANY)) {
    const [to, from] = [unit(match[1]!), unit(match[3]!)];
    if (from && to) found.push({ tool: "convert_units", at: match.index, value: number(match[2]!), from, to });
  }
  return found;
}

function tableAsks(prompt: string): Ask[] {
  const found: Ask[] = [];
  for (const match of prompt.matchAll(TABLE)) {
    const [from, to] = [unit(match[1]!), unit(match[2]!)];
    if (!from || !to) continue;
    const values = [...(match[3] ?? "").matchAll(/-?\d+(?:\.\d+)?/g)]
      .map((number) => Number(number[0]))
      .slice(0, MAX_ROWS);
    found.push(
      values.length > 0
        ? { tool: "unit_table", at: match.index, from, to, values }
        : { tool: "unit_table", at: match.index, from, to },
    );
  }
  return found;
}

function unit(word: string): string | undefined {
  const text = word.trim();
  return UNIT_WORDS.find(([pattern]) => pattern.test(text))?.[1];
}

function number(text: string): number {
  return Number(text.replace(",", "."));
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}
