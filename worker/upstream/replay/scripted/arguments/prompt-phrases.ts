/**
 * What a prompt says beyond its values, read for a property by its name: which number belongs to
 * it by the words around that number ("for customer 77", "a timeout of 5000 ms", "at most 20",
 * "800x600" for `width` and `height`), whether a flag is on or off ("recursively", "nonstop",
 * "don't use safe search", "without my signature"), and the phrase a text property takes ("search
 * the web **for rust runtimes**", "saying **see you at noon**", an SQL statement). Each reader is
 * one pass over the prompt (at most 1,000 characters) or over its words, no nested quantifier.
 *
 * @module
 */

/** A number of the prompt with the words around it (lower case). */
export interface NumberInContext {
  value: number;
  /** The two words before it and the two after, closest first. */
  before: string[];
  after: string[];
}

/** Words around a number that say it is an upper bound or a count ("at most 20", "top 5"). */
const LIMIT_WORDS = new Set(["most", "max", "maximum", "limit", "top", "first", "up", "upto"]);
/** Words of a property's name that say nothing of which number it takes. */
const GENERIC = new Set(["max", "min", "num", "number", "id", "value", "n", "the", "of"]);

/** The numbers standing alone in `prompt`, and a `WxH` size's two, with the words around each. */
export function numbersIn(prompt: string): NumberInContext[] {
  const found: { value: number; at: number; end: number; tag?: string }[] = [];
  for (const m of prompt.matchAll(/(?<![\p{L}\p{N}_.:/-])-?\d+(?:\.\d+)?(?![\p{L}\p{N}_:/-]|\.\d)/gu))
    found.push({ value: Number(m[0]), at: m.index, end: m.index + m[0].length });
  // 800x600: a width and a height.
  for (const m of prompt.matchAll(/(?<![\p{L}\p{N}])(\d{1,5})\s?[x×]\s?(\d{1,5})(?![\p{L}\p{N}])/gu)) {
    found.push({ value: Number(m[1]), at: m.index, end: m.index, tag: "width" });
    found.push({ value: Number(m[2]), at: m.index + 1, end: m.index + m[0].length, tag: "height" });
  }
  found.sort((a, b) => a.at - b.at);
  return found.map(({ value, at, end, tag }) => {
    const before = wordsOf(prompt.slice(Math.max(0, at - 40), at))
      .slice(-2)
      .reverse();
    const after = wordsOf(prompt.slice(end, end + 40)).slice(0, 2);
    return { value, before: tag ? [tag, ...before] : before, after };
  });
}

/** How well a number's words fit a property's name: 2 for a word of the name beside it, 1 for a limit word and a count. */
export function numberFit(key: string | undefined, number: NumberInContext, count: boolean): number {
  const own = keyWords(key).filter((word) => !GENERIC.has(word));
  const around = [...number.before, ...number.after];
  if (own.some((word) => around.some((other) => sameWord(word, other)))) return 2;
  if (count && number.before.some((word) => LIMIT_WORDS.has(word))) return 1;
  return 0;
}

const NEGATIONS = new Set([
  "no",
  "not",
  "don",
  "dont",
  "doesn",
  "never",
  "without",
  "disable",
  "skip",
  "exclude",
  "off",
]);
/** Words of a flag's name that say nothing of what it switches. */
const FLAG_VERBS = new Set(["is", "has", "use", "include", "keep", "enable", "allow", "show", "with", "should", "do"]);

/**
 * Whether the prompt turns a flag on or off: the words of its name, in order ("safe search",
 * "aspect ratio", "recursively" for `recursive`), off when a negation is among the three words
 * before them ("don't use safe search", "without keeping the aspect ratio"); `undefined` when
 * the prompt does not say.
 */
export function flagOf(key: string | undefined, words: readonly string[]): boolean | undefined {
  const name = keyWords(key).filter((word) => !FLAG_VERBS.has(word));
  if (name.length === 0) return undefined;
  for (let i = 0; i + name.length <= words.length; i++) {
    if (!name.every((word, j) => sameWord(word, words[i + j]!))) continue;
    // "doesn't", "don't": the apostrophe splits off a "t".
    return !words.slice(Math.max(0, i - 4), i).some((word) => NEGATIONS.has(word) || word.endsWith("n't"));
  }
  return undefined;
}

/** The phrases a text property takes: what follows "for" or "about" after a search, "saying", or a colon, to the next comma. */
export function phrasesIn(prompt: string): string[] {
  const found: string[] = [];
  const sql = /\b(?:select|insert|update|delete|with)\s/i.exec(prompt);
  if (sql) found.push(cut(prompt.slice(sql.index), /,\s+(?:with|and|using)\s|;/i));
  // "search the web for X": the words after "for" within three of the verb, else after the verb.
  const after =
    /\b(?:search(?:es|ing)?|look(?:s|ing)? up|find|about|saying|says)\s+(?:(?:\S+\s+){0,3}?(?:for|about)\s+)?/gi;
  for (const m of prompt.matchAll(after)) found.push(cut(prompt.slice(m.index + m[0].length), /[,;.!?](?:\s|$)/));
  const colon = prompt.indexOf(": ");
  if (colon >= 0) found.push(cut(prompt.slice(colon + 2), /[,;](?:\s|$)/));
  return [...new Set(found.map((phrase) => phrase.trim()).filter((phrase) => phrase.length >= 2))];
}

function cut(text: string, end: RegExp): string {
  const at = end.exec(text)?.index;
  return (at === undefined ? text : text.slice(0, at)).replace(/[?.!]+$/, "").trim();
}

/** The lower-case words of a property name (`maxResults`, `timeout_ms`: max results, timeout ms). */
function keyWords(key: string | undefined): string[] {
  return key === undefined ? [] : wordsOf(key.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2"));
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((word) => !/^\d/.test(word));
}

/** One word, or one with an ending added ("passenger" and "passengers", "recursive" and "recursively"). */
export function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length < b.length ? [a, b] : [b, a];
  return (
    short.length >= 3 &&
    long.startsWith(short) &&
    /^(?:s|es|ed|d|ing|er|ers|ly|y|ies|al|ally)$/.test(long.slice(short.length))
  );
}
