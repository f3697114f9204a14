/**
 * Which end of a move a prompt's value is, and which end a property asks for: "from Paris to
 * Berlin" gives `from`, `origin` and `source_lang` the value after "from" (or "between", "von",
 * "de", "から" after it, "从" before it) and `to`, `destination` and `target_lang` the one after
 * "to" ("into", "nach", "à", "まで", "到", and the second of "between X and Y"); and the
 * languages a prompt names ("into German") with their ISO 639-1 codes, so that a language
 * property or an enum of codes takes `de`. Each value's end is found once per prompt, in a window
 * of at most {@link WINDOW} characters before it: linear in the prompt.
 *
 * @module
 */
import type { JsonValue } from "../../../../../src/index.ts";

/** The end of a move: where it starts or where it goes. */
export type End = "from" | "to";

/** A language a prompt names, where. */
export interface NamedLanguage {
  /** Its English name, capitalized: `German`. */
  name: string;
  /** Its ISO 639-1 code: `de`. */
  code: string;
  /** Where its name starts in the prompt, and ends. */
  at: number;
  end: number;
}

/** How far before a value its preposition is looked for. */
const WINDOW = 48;

const FROM_KEY = new Set(
  "from origin source src start begin departure depart departing sender old base pickup since min after".split(" "),
);
const TO_KEY = new Set(
  "to destination dest target end arrival arrive arriving recipient into new quote dropoff until goal max before".split(
    " ",
  ),
);

/** The end a property's name asks for (`from`, `origin`, `sourceLang`; `to`, `destination`, `target_lang`), if any. */
export function keyEnd(key: string | undefined): End | undefined {
  if (key === undefined) return undefined;
  const words = key
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}]+/u);
  if (words.some((word) => FROM_KEY.has(word))) return "from";
  if (words.some((word) => TO_KEY.has(word))) return "to";
  return undefined;
}

const BETWEEN_AND = /(?:^|[^\p{L}])(?:between|entre|zwischen)\s+\S.{0,40}\s+(?:and|und|et|y|e|&)\s+(?:the\s+)?$/u;
const FROM_BEFORE =
  /(?:^|[^\p{L}])(?:from|between|von|vom|aus|ab|de|du|des|desde|depuis|da|dal|entre|zwischen|leaving)\s+(?:the\s+)?$|(?:从|自|從)$/u;
const TO_BEFORE =
  /(?:^|[^\p{L}])(?:to|into|towards?|till|until|nach|zum|zur|bis|à|au|aux|vers|hacia|hasta|para|até|->|→)\s+(?:the\s+)?$|(?:到|去|至|往)$/u;
const FROM_AFTER = /^\s?(?:から|より|에서|부터)/u;
const TO_AFTER = /^\s?(?:まで|へ|까지|으로|로)/u;

/** The end the text at `at`..`end` of `text` (lower case) is, by the words around it. */
export function endAt(text: string, at: number, end: number): End | undefined {
  const before = text.slice(Math.max(0, at - WINDOW), at);
  const after = text.slice(end, end + 4);
  if (BETWEEN_AND.test(before) || TO_BEFORE.test(before) || TO_AFTER.test(after)) return "to";
  if (FROM_BEFORE.test(before) || FROM_AFTER.test(after)) return "from";
  return undefined;
}

/** The end of a move each value of one prompt is at, read once per value. */
export class Ends {
  readonly #lower: string;
  readonly #languages: readonly NamedLanguage[];
  readonly #ends = new Map<string, End | undefined>();

  /** `lower`: the prompt in lower case; `languages`: those it names. */
  constructor(lower: string, languages: readonly NamedLanguage[]) {
    this.#lower = lower;
    this.#languages = languages;
  }

  /** The end `value` (a value of the prompt, a language's code or name) is at, if any. */
  of(value: string): End | undefined {
    if (this.#ends.has(value)) return this.#ends.get(value);
    const lower = value.toLowerCase();
    const language = this.#languages.find((l) => l.code === lower || l.name.toLowerCase() === lower);
    const at = language?.at ?? standingAt(this.#lower, lower);
    const end = at < 0 ? undefined : endAt(this.#lower, at, language?.end ?? at + lower.length);
    this.#ends.set(value, end);
    return end;
  }

  /** The end a language the prompt names is at. */
  ofLanguage(language: NamedLanguage): End | undefined {
    return endAt(this.#lower, language.at, language.end);
  }
}

/** Most occurrences of a value looked at for one standing alone. */
const MAX_TRIES = 8;

/** Where `value` first stands alone in `text` (both lower case): not inside a longer word, path or token; -1 if nowhere. */
export function standingAt(text: string, value: string): number {
  if (value === "") return -1;
  let at = text.indexOf(value);
  for (let tries = 0; at >= 0 && tries < MAX_TRIES; tries++) {
    const before = text.charAt(at - 1);
    const after = text.charAt(at + value.length);
    if (!/[\p{L}\p{N}/._-]/u.test(before) && !/[\p{L}\p{N}_/-]/u.test(after)) return at;
    at = text.indexOf(value, at + 1);
  }
  return text.indexOf(value);
}

/** Languages by name (English and their own), with their codes. */
const LANGUAGES: readonly [string, string, readonly string[]][] = [
  ["English", "en", ["english", "anglais", "englisch", "inglés", "ingles"]],
  ["German", "de", ["german", "deutsch", "allemand", "alemán", "aleman"]],
  ["French", "fr", ["french", "français", "francais", "französisch", "francés"]],
  ["Spanish", "es", ["spanish", "español", "espanol", "spanisch", "espagnol", "castellano"]],
  ["Italian", "it", ["italian", "italiano", "italienisch", "italien"]],
  ["Portuguese", "pt", ["portuguese", "português", "portugues", "portugiesisch"]],
  ["Dutch", "nl", ["dutch", "nederlands", "niederländisch"]],
  ["Japanese", "ja", ["japanese", "日本語", "japanisch", "japonais"]],
  ["Chinese", "zh", ["chinese", "mandarin", "中文", "chinesisch", "chinois"]],
  ["Korean", "ko", ["korean", "한국어", "koreanisch"]],
  ["Russian", "ru", ["russian", "русский", "russisch", "russe"]],
  ["Arabic", "ar", ["arabic", "العربية", "arabisch", "arabe"]],
  ["Hindi", "hi", ["hindi"]],
  ["Polish", "pl", ["polish", "polski", "polnisch"]],
  ["Swedish", "sv", ["swedish", "svenska", "schwedisch"]],
  ["Turkish", "tr", ["turkish", "türkçe", "türkisch"]],
  ["Greek", "el", ["greek", "ελληνικά", "griechisch"]],
  ["Hebrew", "he", ["hebrew", "עברית"]],
  ["Danish", "da", ["danish", "dansk", "dänisch"]],
  ["Norwegian", "no", ["norwegian", "norsk", "norwegisch"]],
  ["Finnish", "fi", ["finnish", "suomi", "finnisch"]],
  ["Czech", "cs", ["czech", "čeština", "tschechisch"]],
  ["Ukrainian", "uk", ["ukrainian", "українська", "ukrainisch"]],
  ["Vietnamese", "vi", ["vietnamese", "tiếng việt"]],
  ["Thai", "th", ["thai", "ไทย"]],
  ["Indonesian", "id", ["indonesian", "bahasa indonesia"]],
];

const LANGUAGE_WORDS = new RegExp(
  `(?<![\\p{L}])(${LANGUAGES.flatMap(([, , words]) => words).join("|")})(?![\\p{L}])`,
  "giu",
);
const BY_WORD = new Map(LANGUAGES.flatMap(([name, code, words]) => words.map((word) => [word, { name, code }])));

/** The languages `text` names, in its order (once each). */
export function languagesOf(text: string): NamedLanguage[] {
  const found: NamedLanguage[] = [];
  for (const match of text.matchAll(LANGUAGE_WORDS)) {
    const language = BY_WORD.get(match[0].toLowerCase());
    if (language === undefined || found.some((other) => other.code === language.code)) continue;
    found.push({ ...language, at: match.index, end: match.index + match[0].length });
  }
  return found;
}

/** Whether an enum's option is a language: a code (`de`, `pt-BR`, `EN-US`) or a name. */
function optionLanguage(option: JsonValue): string | undefined {
  if (typeof option !== "string") return undefined;
  const lower = option.toLowerCase();
  const code = /^([a-z]{2})(?:[-_][a-z0-9]{2,4})?$/.exec(lower)?.[1];
  if (code !== undefined && LANGUAGES.some(([, c]) => c === code)) return code;
  return BY_WORD.get(lower)?.code;
}

/** Whether most of an enum's options (two at least) are languages: its values are read as languages. */
export function languageEnum(options: readonly JsonValue[]): boolean {
  const languages = options.filter((option) => optionLanguage(option) !== undefined).length;
  return languages >= 2 && languages * 2 >= options.length;
}

/** The options of an enum that are the languages the prompt names, each with its language, in the prompt's order. */
export function languageOptions(
  options: readonly JsonValue[],
  languages: readonly NamedLanguage[],
): { option: JsonValue; language: NamedLanguage }[] {
  return languages.flatMap((language) => {
    const option = options.find((o) => optionLanguage(o) === language.code);
    return option === undefined ? [] : [{ option, language }];
  });
}

/**
 * `items` with those at the end `want` asks for first, then those at no end, then (in `far`)
 * those at the other end; all in `near` when nothing is asked.
 */
export function byEnd<T>(
  items: readonly T[],
  endOf: (item: T) => End | undefined,
  want: End | undefined,
): { near: T[]; far: T[] } {
  if (want === undefined) return { near: [...items], far: [] };
  const ends = items.map((item) => ({ item, end: endOf(item) }));
  return {
    near: [
      ...ends.filter(({ end }) => end === want).map(({ item }) => item),
      ...ends.filter(({ end }) => end === undefined).map(({ item }) => item),
    ],
    far: ends.filter(({ end }) => end !== undefined && end !== want).map(({ item }) => item),
  };
}
