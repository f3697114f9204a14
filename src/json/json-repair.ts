import type { JsonRepair, JsonValue } from "../shared/json.ts";
import { ownValue } from "../shared/values.ts";
import { jsonFailure } from "./json-error-position.ts";
import type { JsonParseFailure } from "./json-grammar.ts";
import { parseStrictJsonText } from "../shared/long-member-name.ts";

export type { JsonRepair };

/**
 * The outcome of {@link repairJson}: the value, what was fixed and the repaired JSON text it was
 * read from (`text`: where the schema checks look for a member name repeated in one object, which
 * the value holds once), or, when nothing could be
 * saved, why (`code`) and where (`position`): `too-deep` at the first bracket past `maxDepth` when
 * the repaired text is JSON up to there, else where the original text stops being JSON, as
 * `IncrementalJsonParser` says (`trailing-data` after a whole value, else `invalid-json`, at the
 * text's length when it is cut short).
 */
export type RepairResult =
  | { ok: true; value: JsonValue; repairs: JsonRepair[]; text?: string }
  | { ok: false; position?: number; code?: JsonParseFailure["reason"] };

const PYTHON: Record<string, string> = { True: "true", False: "false", None: "null" };

/**
 * Repairs the mistakes models make in tool arguments: a markdown code fence around the JSON (or
 * only before it, never closed),
 * Python's `True`/`False`/`None`, single-quoted strings and keys, unquoted keys, trailing commas,
 * and (only when `closeTruncated`, i.e. the provider finished normally) a value cut short, closed
 * at the end. One pass over the text plus one `JSON.parse` (so hostile keys stay ordinary own
 * properties), of text nested at most `maxDepth` deep (64 unless given: the accumulator gives its
 * own), never deeper.
 *
 * It is the `repair` plug-in of `ToolCallAccumulator`/`ToolCallAccumulatorStream` (on by default
 * in `streamToolCalls`), which also reports its `position` for arguments it cannot repair.
 *
 * @example
 * ```ts
 * repairJson("{'city': 'Paris', 'exact': True,}", { closeTruncated: false });
 * // { ok: true, value: { city: "Paris", exact: true }, repairs: ["single-quotes", "python-literals", "trailing-commas"],
 * //   text: '{"city": "Paris", "exact": true}' }
 * ```
 */
export function repairJson(
  text: string,
  options: { closeTruncated: boolean; maxDepth?: number | undefined },
): RepairResult {
  const maxDepth = options.maxDepth ?? 64;
  const repairs = new Set<JsonRepair>();
  const [body, start] = unfenced(text) ?? [text, 0];
  if (body !== text) repairs.add("code-fence");
  const rewritten = rewrite(body, repairs, options.closeTruncated, maxDepth);
  // Where the repaired text, JSON up to there, goes past the limit or on after its value: why it is not repaired.
  if (typeof rewritten === "object") return { ok: false, code: rewritten.reason, position: rewritten.offset + start };
  if (rewritten !== undefined && repairs.size > 0) {
    try {
      return { ok: true, value: parseStrictJsonText(rewritten) as JsonValue, repairs: [...repairs], text: rewritten };
    } catch {
      // not repaired: the original text's error below
    }
  }
  return unrepaired(text, maxDepth);
}

/**
 * What cannot be repaired: where and why the original text stops being JSON, as the parser says
 * (its length when it is cut short). `repair: false` of the main entry gives this alone.
 *
 * @example
 * ```ts
 * unrepaired('{"a": 1} x', 64); // { ok: false, code: "trailing-data", position: 9 }
 * ```
 */
export function unrepaired(text: string, maxDepth: number): RepairResult {
  const failure = jsonFailure(text, maxDepth, true);
  return { ok: false, code: failure?.reason ?? "invalid-json", position: failure?.offset ?? text.length };
}

/**
 * The text inside a markdown code fence (```` ```json ... ``` ````, the language and the white space
 * around the body left out) and its offset in `text`, undefined when it does not open with one. A
 * fence never closed (the model stopped after the value) holds the rest of the text. Scanned, not
 * matched by a pattern: a lazy body before white space and a closing fence backtracks on long
 * runs of white space (10 KB of spaces took minutes), and this text is the model's.
 */
function unfenced(text: string): [string, number] | undefined {
  let at = text.length - text.trimStart().length;
  if (!text.startsWith("```", at)) return undefined;
  at += 3;
  while (at < text.length && /[a-zA-Z]/.test(text[at]!)) at++;
  let body = text.slice(at).trimEnd();
  if (body.endsWith("```")) body = body.slice(0, -3);
  const inner = body.trimStart();
  return [inner.trimEnd(), at + body.length - inner.length];
}

/**
 * One pass that rewrites outside strings and converts single-quoted strings; `undefined` when cut
 * short and not allowed to close. It stops at a bracket past `maxDepth` and at anything but white
 * space after the value: where the parser stops too (`too-deep`, `trailing-data`) when the text
 * rewritten so far is JSON up to there, else `undefined`.
 */
function rewrite(
  text: string,
  repairs: Set<JsonRepair>,
  closeTruncated: boolean,
  maxDepth: number,
): string | JsonParseFailure | undefined {
  let out = "";
  const open: string[] = []; // closing brackets still owed
  let closed = false;
  let i = 0;
  /** The parser's failure here, when the text so far (and `end`) is JSON. */
  const stop = (reason: JsonParseFailure["reason"], end: string): JsonParseFailure | undefined =>
    jsonFailure(out + end, maxDepth, true) ? undefined : { reason, offset: i };
  while (i < text.length) {
    const char = text[i]!;
    if (closed && !" \n\r\t".includes(char)) return stop("trailing-data", "");
    if (char === '"' || char === "'") {
      const end = stringEnd(text, i);
      if (char === "'") repairs.add("single-quotes");
      const body = text.slice(i + 1, end === -1 ? text.length : end);
      out += `"${char === '"' ? body : body.replace(/\\[\s\S]|"/g, requote)}`;
      if (end === -1) {
        if (!closeTruncated) return undefined;
        repairs.add("truncated");
        out = closeString(out);
        break;
      }
      out += '"';
      i = end + 1;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i, i + 64))?.[0];
    if (word !== undefined) {
      const after = /^\s*:/.test(text.slice(i + word.length, i + word.length + 16));
      const literal = ownValue(PYTHON, word);
      if (after && open[open.length - 1] === "}") {
        repairs.add("unquoted-keys");
        out += `"${word}"`;
      } else if (literal !== undefined) {
        repairs.add("python-literals");
        out += literal;
      } else out += word;
      i += word.length;
      continue;
    }
    if (char === "{" || char === "[") {
      // A value in its place and what is open closed: JSON so far, the parser stops here too.
      if (open.length >= maxDepth) return stop("too-deep", `null${[...open].reverse().join("")}`);
      open.push(char === "{" ? "}" : "]");
    } else if (char === "}" || char === "]") {
      open.pop();
      closed = open.length === 0;
    } else if (char === "," && /^\s*[}\]]/.test(text.slice(i + 1, i + 1 + 64))) {
      repairs.add("trailing-commas");
      i++;
      continue;
    }
    out += char;
    i++;
  }
  if (open.length === 0) return out;
  if (!closeTruncated) return undefined;
  repairs.add("truncated");
  return closeOpen(out, open);
}

/**
 * One token of a single-quoted string's body as JSON: `"` escaped, `\'` unescaped, any other escape
 * kept. Escapes are matched whole, left to right, so that a quote after an escaped backslash, or
 * right after another quote, is seen as the quote it is.
 */
function requote(token: string): string {
  return token === '"' ? '\\"' : token === "\\'" ? "'" : token;
}

/**
 * Closes a string cut short. An escape cut in two ends: a lone backslash stays a backslash, a `\u`
 * short of its four digits is left out. The backslashes before the end are counted back, so an
 * escaped one (`\\`, as in `C:\\Users\\`) is no cut escape.
 */
function closeString(text: string): string {
  const unicode = /\\u[0-9a-fA-F]{0,3}$/.exec(text.slice(-6))?.[0].length ?? 0;
  const at = text.length - unicode;
  let slashes = 0;
  while (text[at - 1 - slashes] === "\\") slashes++;
  if (unicode > 0) return `${slashes % 2 ? text : text.slice(0, at)}"`;
  return `${text}${slashes % 2 ? "\\" : ""}"`;
}

/**
 * Where a number cut short ends its digits (`1.`, `2e`, `3e-`: the signs, points and exponents after
 * its last digit), else the text's length. Scanned back from the end: a pattern anchored only at
 * the end is tried at every start, and a long run of such characters made that quadratic.
 */
function numberTail(text: string): number {
  let end = text.length;
  while (end > 0 && "-+.eE".includes(text[end - 1]!)) end--;
  return end > 0 && end < text.length && text[end - 1]! >= "0" && text[end - 1]! <= "9" ? end : text.length;
}

/** Index of the quote closing the string that starts at `start`, or -1 when the text ends first. */
function stringEnd(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === quote) return i;
  }
  return -1;
}

/** Ends a value cut short: finishes a dangling member or number, then closes what is open. */
function closeOpen(text: string, open: string[]): string {
  let out = text.trimEnd();
  if (out.endsWith(",")) out = out.slice(0, -1);
  else if (out.endsWith(":")) out += "null";
  else if (numberTail(out) < out.length) out = out.slice(0, numberTail(out));
  else if (/(?:^|[^\w"])(t|tr|tru|f|fa|fal|fals|n|nu|nul)$/.test(out)) {
    out = out.replace(
      /(t|tr|tru|f|fa|fal|fals|n|nu|nul)$/,
      (partial) => ["true", "false", "null"].find((l) => l.startsWith(partial))!,
    );
  }
  // A key with no value yet: `{"a": 1, "b"` -> `{"a": 1, "b": null}`.
  if (open[open.length - 1] === "}" && /[{,]\s*"(?:[^"\\]|\\.)*"$/.test(out)) out += ": null";
  return out + open.reverse().join("");
}
