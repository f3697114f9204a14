/**
 * The values a prompt holds, as the scripted model reads them to fill a tool's arguments: words
 * and tokens (`ORD-1234`, `a@b.org`), standalone numbers, quoted phrases, dates, URLs, emails,
 * and places (a capitalized name after "in", "at", "for", ...: "weather in Paris" gives `Paris`).
 * Deliberately small and linear: every pattern here runs once over at most
 * {@link MAX_PROMPT_READ}'s 1,000 characters, with no nested quantifier.
 *
 * @module
 */

import { languagesOf, type NamedLanguage } from "./directions.ts";
import { type NumberInContext, numbersIn, phrasesIn } from "./prompt-phrases.ts";

/** What {@link readValues} finds in a prompt, each list in the prompt's order. */
export interface PromptValues {
  /** The prompt, trimmed, without a trailing question mark. */
  text: string;
  /** Its lower-case words (letters and digits, outside paths, URLs and email addresses), for matching tool names. */
  words: string[];
  /** Tokens without spaces (`ORD-1234`, `#42`, `README.md`), punctuation around them trimmed. */
  tokens: string[];
  /** Numbers standing alone (not part of a token such as `ORD-1234`, nor of a clock time), and a `WxH` size's two. */
  numbers: number[];
  /** The same numbers, each with the words around it. */
  numbersInContext: NumberInContext[];
  /** The words that ask for something: `words` without those of quoted text, a message ("saying ...") or an SQL statement. */
  commands: string[];
  /** Acronyms (`PR`, `DM`), lower case. */
  acronyms: string[];
  /** Phrases a text property takes ("search the web for X": X; an SQL statement). */
  phrases: string[];
  /** Text in quotes. */
  quoted: string[];
  /** Names a place or a thing is called by: capitalized words after a preposition, then other capitalized words. */
  names: string[];
  /** `https://...` URLs. */
  urls: string[];
  /** Email addresses. */
  emails: string[];
  /** Dates written `YYYY-MM-DD`. */
  dates: string[];
  /** `text` in lower case, where a value's end of a move is read (./directions.ts). */
  lower: string;
  /** The languages it names ("into German"), in its order, with where in `lower`. */
  languages: NamedLanguage[];
}

/** Words of a prompt that say nothing about which tool it needs. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be by can could do does for from get give how i in is it me my of on or please " +
    "show tell that the there this to us use using was we what when where which who why will with would you your"
  ).split(" "),
);

/** The values of `prompt` (its first 1,000 characters, which the caller has cut). */
export function readValues(prompt: string): PromptValues {
  const text = prompt
    .trim()
    .replace(/[?？]+$/, "")
    .trim();
  const lower = text.toLowerCase();
  const numbers = numbersIn(prompt);
  const tokens = [...prompt.matchAll(/[^\s]+/g)]
    .map((m) => m[0].replace(/^[("'`[{<]+|[)"'`\]}>,;:!?.]+$/g, ""))
    .filter((token) => token !== "");
  return {
    text,
    // Paths, URLs and addresses are values, not words: "fh-agent-cwd" in a path names no `Agent` tool.
    words: wordsOf(tokens),
    tokens,
    commands: wordsOf(commandText(text)),
    acronyms: tokens
      .filter((token) => /^[A-Z]{2,4}s?$/.test(token))
      .map((token) => token.toLowerCase().replace(/s$/, "")),
    numbers: numbers.map((number) => number.value),
    numbersInContext: numbers,
    phrases: phrasesIn(text),
    quoted: [...prompt.matchAll(/"([^"\n]{1,200})"|“([^”\n]{1,200})”|'([^'\n]{1,200})'(?!\w)/g)].map(
      (m) => m[1] ?? m[2] ?? m[3] ?? "",
    ),
    names: names(prompt),
    urls: tokens.filter((token) => /^https?:\/\/\S+$/i.test(token)),
    emails: tokens.filter((token) => /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i.test(token)),
    dates: [...prompt.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].map((m) => m[0]),
    lower,
    languages: languagesOf(lower),
  };
}

/** The lower-case words of tokens, outside paths, URLs and addresses. */
function wordsOf(tokens: readonly string[] | string): string[] {
  const list = typeof tokens === "string" ? tokens.split(/\s+/) : tokens;
  return list
    .filter((token) => !/[/\\@]|^https?:/i.test(token))
    .flatMap((token) => [...token.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]));
}

/** The prompt without what it quotes, a message it dictates ("saying ..." to the next comma) and an SQL statement. */
function commandText(text: string): string {
  return text
    .replace(/"[^"\n]{0,200}"|“[^”\n]{0,200}”|'[^'\n]{0,200}'(?!\w)/g, " ")
    .replace(/\b(?:saying|says)\s[^,;]*/gi, " ")
    .replace(/\b(?:select|insert|update|delete)\s[^;]*/gi, " ");
}

/** Whether a word is one that says nothing in a prompt ("in", "to", "the", ...). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}

/** Whether a word of the prompt says something (not "the", "what", ...). */
export function meaningful(word: string): boolean {
  return word.length > 1 && !STOP_WORDS.has(word);
}

/**
 * Capitalized names: first those after "in", "at", "for", "to", "from", "near" or "of" (a place,
 * whatever its case: "weather in paris" gives `Paris`), then any other run of capitalized words
 * that does not start the sentence.
 */
function names(prompt: string): string[] {
  const found: string[] = [];
  const add = (name: string): void => {
    const clean = name.trim();
    if (clean === "" || STOP_WORDS.has(clean.toLowerCase()) || CJK_TIMES.has(clean)) return;
    if (!found.includes(clean)) found.push(clean);
  };
  const NAME = "\\p{L}[\\p{L}'’.-]*";
  const after = new RegExp(`\\b(?:in|at|for|to|from|near|of)\\s+(${NAME}(?:\\s+\\p{Lu}[\\p{L}'’.-]*){0,3})`, "gu");
  for (const match of prompt.matchAll(after)) {
    const words = match[1]!.split(/\s+/);
    // A lower-case word after the preposition is a place only when it is the last word or the
    // next is not a plain word: "weather in paris" yes, "in the morning" no (a stop word).
    if (STOP_WORDS.has(words[0]!.toLowerCase())) continue;
    add(words.map(capitalize).join(" "));
  }
  for (const match of prompt.matchAll(/(?<![.?!]\s|^)\b\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,3}/gu)) {
    if (!/[\p{Ll}]/u.test(match[0])) continue; // ORD, UK, an acronym: a token, not a name
    add(match[0]);
  }
  // Scripts without spaces or case: a name is what a particle follows ("東京の天気", "서울의 날씨")
  // or a preposition precedes ("从北京到上海"); each pattern reads a bounded run at each place.
  for (const pattern of CJK_NAMES) for (const match of prompt.matchAll(pattern)) add(match[1]!);
  return found;
}

/** Days and times a particle follows as it follows a place ("今日の天気"): not names. */
const CJK_TIMES = new Set(["今日", "明日", "昨日", "今", "今天", "明天", "昨天", "現在", "现在", "오늘", "내일"]);

const CJK_NAMES: readonly RegExp[] = [
  /([\p{Script=Han}\p{Script=Katakana}ー]{1,12})(?:の|で|へ|から|まで|にある)/gu,
  /(?:从|從|在|去|到|至|往|飞往)(\p{Script=Han}{2,4}?)(?=的|到|去|[，。？！,.?!\s]|$)/gu,
  /(\p{Script=Han}{2,4})的/gu,
  /(\p{Script=Hangul}{1,10}?)(?:의|에서|까지|으로)(?=[\s?.!,]|$)/gu,
];

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
