/**
 * The values the scripted model tries for a string, a number or a boolean of a tool's arguments,
 * best first: what the prompt holds that fits the property (by its name: a `city` takes a place,
 * a `time_zone` a zone, an `order_id` a token with digits; by its pattern or format: any token
 * that matches), then the schema's `default` and `examples`, then a value its `format` or its
 * `pattern` describes, then the prompt's own words. The caller keeps the first that its tool's
 * schema accepts.
 *
 * @module
 */
import type { JsonValue } from "../../../../../src/index.ts";
import { zoneOf } from "../prompt-reading.ts";
import { keyEnd } from "./directions.ts";
import { HOSTNAME } from "./format-shapes.ts";
import { numberFit } from "./prompt-phrases.ts";
import { samplePattern } from "./pattern-sample.ts";
import { isStopWord, type PromptValues } from "./prompt-values.ts";
import { tokenKinds } from "./token-kinds.ts";

/** A JSON Schema object, as the scripted model reads one. */
export type Schema = { [key: string]: JsonValue };

/** What a property's name says it holds. */
type Hint =
  | "host"
  | "lang"
  | "owner"
  | "repo"
  | "place"
  | "zone"
  | "email"
  | "url"
  | "date"
  | "path"
  | "text"
  | "name"
  | "id"
  | "count";

/** A path whose last segment is a file's name with an extension (`README.md`, `src/a.ts`), not `.git` or `src`. */
const FILE_NAME = /(?:^|\/)[^/.][^/]*\.[\p{L}\p{N}]+$/u;
/** Property names and what they hold: the first that matches wins. */
const HINTS: readonly [RegExp, Hint][] = [
  [/(?:time_?zone|^tz$|zone)/i, "zone"],
  [/(?:lang|locale)/i, "lang"],
  // A repository's owner and name, from an `owner/repo` of the prompt.
  [/^(?:owner|org|organization|repo_?owner|user_?name_?or_?org)$/i, "owner"],
  [/^(?:repo|repository|repo_?name|repository_?name)$/i, "repo"],
  [/(?:host|domain)/i, "host"],
  [/(?:city|location|place|town|destination|origin|country|region|address|where|state|venue)/i, "place"],
  [/e_?mail/i, "email"],
  [/(?:url|uri|link|website|href)/i, "url"],
  [/(?:date|day|when)/i, "date"],
  [/(?:path|file|dir|folder)/i, "path"],
  [/(?:id$|_id|number|code|sku|ref|key|order|ticket|invoice|account|tracking)/i, "id"],
  [
    /(?:query|^q$|sql|statement|search|question|text|prompt|message|content|input|topic|keyword|term|body|instruction|request)/i,
    "text",
  ],
  [/(?:name|title|person|user|who|customer|author)/i, "name"],
  [/(?:count|limit|^n$|num|quantity|amount|max|min|top|size|days|hours|^age$|_age$|year)/i, "count"],
];

/** What a property's name says it holds, if anything. */
export function hintOf(key: string | undefined): Hint | undefined {
  return key === undefined ? undefined : HINTS.find(([pattern]) => pattern.test(key))?.[1];
}

/** Strings of the prompt that fit a property by its name, its pattern or its format. */
export function promptStrings(schema: Schema, key: string | undefined, values: PromptValues): string[] {
  const hint = hintOf(key);
  const format = typeof schema["format"] === "string" ? schema["format"] : undefined;
  const { withDigits, paths, slugs, globs, times, marked, lowerTokens } = tokenKinds(values);
  // The token the prompt labels with the property's name comes first ("deployment api-server",
  // "namespace prod"), for a value that is one token (not a text, which quotes its words).
  const found: string[] = hint === "text" ? [] : labelled(key, values.tokens, lowerTokens);
  // A move's or a copy's ends are the prompt's paths when it has some ("Move notes.txt to
  // archive/notes.txt"), a trip's are places.
  if (key !== undefined && /^(?:source|src|dest|destination|target|from|to)(?:_?path)?$/i.test(key))
    found.push(...paths);
  if (hint === "zone") {
    found.push(...[...values.names, ...values.tokens].flatMap((name) => zoneOf(name) ?? []));
  }
  if (hint === "place") found.push(...values.names);
  if (hint === "host") found.push(...values.tokens.filter((token) => HOSTNAME.test(token) && token.includes(".")));
  // A language by its code first ("into German": `de`), then its name.
  if (hint === "lang") found.push(...values.languages.flatMap((language) => [language.code, language.name]));
  // `from` and `to` say nothing of what they hold but that it is one end of a move: a place, a date, a phrase.
  if (hint === undefined && keyEnd(key) !== undefined) found.push(...values.names, ...values.dates, ...values.quoted);
  // `octocat/hello-world`: an owner and a repository, not a path (no leading `/`, one `/`).
  if (hint === "owner" || hint === "repo")
    for (let i = 0; i < slugs.length; i += 3) found.push(slugs[i + (hint === "owner" ? 1 : 2)]!);
  if (hint === "email" || format === "email") found.push(...values.emails);
  if (hint === "url" || format === "uri" || format === "url") found.push(...values.urls);
  if (hint === "date" || format === "date") found.push(...values.dates);
  // A glob for a `pattern`; a path is none ("files matching *.ts in src": `src`).
  if (key !== undefined && /pattern|glob|wildcard/i.test(key)) found.push(...globs);
  if (hint === "path") {
    // A folder takes no file's name (Codex's `workdir` "README.md" fails "Not a directory").
    const fits = (token: string) => !/(?:dir|folder)/i.test(key ?? "") || !FILE_NAME.test(token);
    found.push(...values.tokens.filter((t) => /[/.]/.test(t) && !/^https?:|[*?]/i.test(t) && fits(t)));
    for (const m of values.text.matchAll(/\b(?:in|under|inside|within)\s+([\w./~-]+)/giu))
      if (!isStopWord(m[1]!) && fits(m[1]!)) found.push(m[1]!);
  }
  if (hint === "id") found.push(...withDigits);
  if (hint === "name") found.push(...values.quoted, ...values.names);
  if (hint === "text") {
    // An SQL statement for `sql`, else the phrase a search or a message names.
    const phrases = /sql/i.test(key ?? "")
      ? values.phrases
      : values.phrases.filter((p) => !/^(?:select|insert|update|delete|with)\s/i.test(p));
    found.push(...values.quoted, ...phrases, values.text);
  }
  // A time and a date-time from the prompt's clock times ("at 19:30") and dates.
  if (format === "time") found.push(...times.map((time) => `${time}Z`));
  if (format === "date-time")
    found.push(...values.dates.flatMap((date) => [...times, "00:00:00"].map((time) => `${date}T${time}Z`)));
  // Any format (`ipv4`, `hostname`, ...) or pattern takes a token of the prompt that has it, one with
  // a digit or a sign (`ORD-7`, `@octocat`, `db1.example`) before a plain word.
  if (format !== undefined) found.push(...marked, ...values.tokens);
  // A pattern says what it takes better than a name.
  if (typeof schema["pattern"] === "string") found.push(...withDigits, ...marked, ...values.tokens, ...values.names);
  return [...new Set(found.filter((value) => value !== ""))];
}

/** The tokens that follow a word of `key`'s name (three letters at least) in the prompt. */
function labelled(key: string | undefined, tokens: readonly string[], lower: readonly string[]): string[] {
  const words = (
    key
      ?.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .toLowerCase()
      .match(/\p{L}{3,}/gu) ?? []
  ).filter((word) => !isStopWord(word) && !/^(?:name|type|value|text|the)$/.test(word));
  if (words.length === 0) return [];
  // A set, not a scan of the words per token: a key's words times the prompt's tokens, per property.
  const labels = new Set(words.flatMap((word) => [word, `${word}s`]));
  const found: string[] = [];
  for (let i = 0; i + 1 < tokens.length; i++)
    if (labels.has(lower[i]!) && !isStopWord(tokens[i + 1]!)) found.push(tokens[i + 1]!);
  return found;
}

/** Strings the schema itself offers: its default, its examples, then its format's or its pattern's shape. */
export function schemaStrings(schema: Schema, now: number, variant = 0): string[] {
  const found: JsonValue[] = [schema["default"] ?? null, ...list(schema["examples"])];
  const iso = new Date(now).toISOString();
  const formats: Record<string, string> = {
    "date-time": iso,
    date: iso.slice(0, 10),
    time: `${iso.slice(11, 19)}Z`,
    email: "user@example.com",
    "idn-email": "user@example.com",
    uri: "https://example.com/",
    url: "https://example.com/",
    "uri-reference": "https://example.com/",
    iri: "https://example.com/",
    hostname: "example.com",
    uuid: "00000000-0000-4000-8000-000000000000",
    ipv4: "192.0.2.1",
    ipv6: "2001:db8::1",
    duration: "P1D",
  };
  const format = typeof schema["format"] === "string" ? formats[schema["format"]] : undefined;
  if (format !== undefined) found.push(format);
  if (typeof schema["pattern"] === "string") found.push(samplePattern(schema["pattern"], variant) ?? null);
  return found.filter((value): value is string => typeof value === "string");
}

/** Hints of properties that hold a short value, never a sentence: a place, a code, a name. */
const SHORT: ReadonlySet<Hint | undefined> = new Set([
  "host",
  "lang",
  "owner",
  "repo",
  "place",
  "zone",
  "email",
  "url",
  "date",
  "path",
  "id",
  "count",
]);

/** Whether a property holds a short value (a place, a name, one end of a move, ...), which the whole prompt never is. */
export function shortField(schema: Schema, key: string | undefined): boolean {
  const hint = hintOf(key);
  if (SHORT.has(hint) || (hint === undefined && keyEnd(key) !== undefined)) return true;
  if (hint === "name" && !/title|subject|summary/i.test(key ?? "")) return true;
  return typeof schema["maxLength"] === "number" && schema["maxLength"] <= 40;
}

/**
 * The prompt's own words for a string nothing else fills: a quoted phrase, a name, the prompt
 * (never for a {@link shortField}), "example"; cut or padded to the schema's lengths.
 */
export function fallbackStrings(schema: Schema, values: PromptValues, key?: string): string[] {
  const min = typeof schema["minLength"] === "number" ? schema["minLength"] : 0;
  const max = typeof schema["maxLength"] === "number" ? schema["maxLength"] : Number.POSITIVE_INFINITY;
  // A language nobody named: the prompt's own, taken to be English.
  if (hintOf(key) === "lang") return ["en", "English", "example"];
  const short = shortField(schema, key);
  const phrases = short ? values.quoted.filter((quoted) => quoted.length <= 60) : values.quoted;
  return [...phrases, ...values.names, ...(short ? [] : [values.text]), "example"].map((value) => {
    const points = [...value].slice(0, max);
    while (points.length < min) points.push("x");
    return points.join("");
  });
}

/** Numbers to try: the prompt's, the schema's default and examples, then its bounds and small numbers. */
export function numberCandidates(schema: Schema, values: PromptValues, integer: boolean, key?: string): number[] {
  const n = (key: string): number | undefined =>
    typeof schema[key] === "number" ? (schema[key] as number) : undefined;
  const step = n("multipleOf");
  const min =
    n("minimum") ?? (n("exclusiveMinimum") === undefined ? undefined : n("exclusiveMinimum")! + (integer ? 1 : 0.5));
  const max =
    n("maximum") ?? (n("exclusiveMaximum") === undefined ? undefined : n("exclusiveMaximum")! - (integer ? 1 : 0.5));
  // The numbers whose words say they are this property's first ("for customer 77": `customer_id`).
  const count = hintOf(key) === "count";
  const fits = values.numbersInContext
    .map((number) => ({ value: number.value, fit: numberFit(key, number, count) }))
    .filter(({ fit }) => fit > 0)
    .sort((a, b) => b.fit - a.fit)
    .map(({ value }) => value);
  const found: (number | undefined)[] = [
    ...fits,
    ...values.numbers,
    ...[schema["default"], ...list(schema["examples"])].map((v) => (typeof v === "number" ? v : undefined)),
    min,
    max,
    step,
    1,
    0,
  ];
  if (step !== undefined && min !== undefined) found.push(Math.ceil(min / step) * step);
  if (min !== undefined && max !== undefined) found.push((min + max) / 2);
  return found.flatMap((value) => {
    if (value === undefined || !Number.isFinite(value)) return [];
    return integer ? [Math.round(value), Math.ceil(value), Math.floor(value)] : [value];
  });
}

/** The enum values the prompt names (their words, any case), in the prompt's order ("from kg to lb": kg, lb). */
export function namedOptions(options: readonly JsonValue[], values: PromptValues): JsonValue[] {
  return options
    .map((option) => ({ option, at: position(option, values) }))
    .filter(({ at }) => at >= 0)
    .sort((a, b) => a.at - b.at)
    .map(({ option }) => option);
}

/** The enum value the prompt names (its words, any case), else the schema's default, else the first. */
export function enumValue(schema: Schema, options: readonly JsonValue[], values: PromptValues): JsonValue {
  const named = options.find((option) => names(option, values));
  if (named !== undefined) return named;
  const fallback = schema["default"];
  if (fallback !== undefined && options.some((option) => JSON.stringify(option) === JSON.stringify(fallback)))
    return fallback;
  return options[0] ?? null;
}

/**
 * Whether the prompt names one of the enum's values, one that is not only a word any sentence
 * has: "in" (inches) is in "Wie spät ist es in Tokio?", and says nothing of a unit there.
 */
export function enumNamed(options: readonly JsonValue[], values: PromptValues): boolean {
  return options.some(
    (option) =>
      names(option, values) &&
      (typeof option !== "string" || !(option.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).every(isStopWord)),
  );
}

/** Whether the prompt's words hold a string option's words, in order ("in-progress" in "what is in progress"). */
function names(option: JsonValue, values: PromptValues): boolean {
  return position(option, values) >= 0;
}

/** Each prompt's words as one text, ` a b c `, built once: an enum's every option is looked for in it. */
const WORD_TEXTS = new WeakMap<PromptValues, string>();

/** Where the prompt's words hold a string option's words, or a number option as a number of the prompt ("level 2"), or -1. */
function position(option: JsonValue, values: PromptValues): number {
  if (typeof option === "number" && values.numbers.includes(option)) option = String(option);
  if (typeof option !== "string") return -1;
  const words = option.toLowerCase().match(/[\p{L}\p{N}]+/gu);
  if (words === null) return -1;
  let text = WORD_TEXTS.get(values);
  if (text === undefined) WORD_TEXTS.set(values, (text = ` ${values.words.join(" ")} `));
  return text.indexOf(` ${words.join(" ")} `);
}

export function list(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}
