/**
 * The kinds of a prompt's tokens the scripted model offers a property (those with a digit, paths,
 * `owner/repo` slugs, globs, clock times, those with a mark, all in lower case), read once per prompt: a client's
 * schema may have a couple of thousand properties, and each read them again before.
 *
 * @module
 */
import type { PromptValues } from "./prompt-values.ts";

/** The prompt's tokens by kind, which no property changes. */
interface TokenKinds {
  /** Tokens with a digit. */
  withDigits: string[];
  /** Paths: a `/` or a `.`, not a URL, an address nor a number. */
  paths: string[];
  /** `owner/repo`: each match's whole, owner and name, in turn. */
  slugs: string[];
  /** Globs (`*`, `?`). */
  globs: string[];
  /** Clock times (`19:30`) as `HH:MM:00`. */
  times: string[];
  /** Tokens with a character other than a letter. */
  marked: string[];
  /** Every token in lower case, in the prompt's order. */
  lowerTokens: string[];
}

/** Each prompt's kinds, by its values. */
const KINDS = new WeakMap<PromptValues, TokenKinds>();

/** `values`' tokens by kind, read on the first call for these values. */
export function tokenKinds(values: PromptValues): TokenKinds {
  let kinds = KINDS.get(values);
  if (kinds !== undefined) return kinds;
  const tokens = values.tokens;
  kinds = {
    withDigits: tokens.filter((token) => /\d/.test(token)),
    paths: tokens.filter((token) => /[/.]/.test(token) && !/^https?:|@/i.test(token) && !/^[\d.]+$/.test(token)),
    slugs: tokens.flatMap((token) => /^([\w.-]+)\/([\w.-]+)$/u.exec(token) ?? []),
    globs: tokens.filter((token) => /[*?]/.test(token)),
    times: tokens.flatMap((token) => {
      const m = /^([01]?\d|2[0-3])[:h.]([0-5]\d)$/.exec(token);
      return m ? [`${m[1]!.padStart(2, "0")}:${m[2]}:00`] : [];
    }),
    marked: tokens.filter((token) => /[^\p{L}]/u.test(token)),
    lowerTokens: tokens.map((token) => token.toLowerCase()),
  };
  KINDS.set(values, kinds);
  return kinds;
}
