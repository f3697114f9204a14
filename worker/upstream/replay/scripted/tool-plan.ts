/**
 * Which of the request's tools the scripted model calls for a prompt, and with what arguments.
 *
 * 1. The Worker's own tools (`current_time`, `calculate`, `convert_units`, `unit_table`) by the
 *    phrasings the prompt reader knows ("What time is it in Tokyo?", "17% of 230"), when the
 *    request offers them and their schema takes those arguments.
 * 2. Any other tool whose name the prompt names ("Where is my **order** ORD-1234?" and
 *    `lookup_order`; "**weather** in Paris" and `get_weather`), or for which the prompt holds a
 *    value only it takes (a token its pattern matches, a value of its `enum`), best first.
 * 3. Failing those, the tool with a required property whose name says what the prompt holds
 *    (`city` and "Wie ist das Wetter in Berlin?": a place), or whose description the prompt's words
 *    match best.
 * 4. With `tool_choice` requiring a call (`required`, or a tool by name) and nothing written, the
 *    named tool, or the first whose arguments can be written, best fitting first.
 *
 * Arguments come from ./arguments/schema-fill.ts: always valid against the tool's schema, or the
 * tool is not called. `tool_choice: "none"` calls nothing.
 *
 * @module
 */
import { type CheckBudget, checkToolArguments, type JsonValue, type ToolSchema } from "../../../../src/index.ts";
import { promptFits, promptSuits } from "./arguments/prompt-fit.ts";
import { parallelArguments } from "./arguments/parallel-values.ts";
import { fillArguments } from "./arguments/schema-fill.ts";
import { turnBudget } from "./arguments/schema-parts.ts";
import { sameWord as sameStem } from "./arguments/prompt-phrases.ts";
import { meaningful, readValues, type PromptValues } from "./arguments/prompt-values.ts";
import { type Ask, readPrompt } from "./prompt-reading.ts";
import type { ScriptedCall } from "./script.ts";

/**
 * How much of a prompt is read: the demo's questions are short, and the prompt reader's patterns
 * take time that grows faster than the text (a long run of digits), so a huge prompt must not
 * cost the Worker more than a short one.
 */
export const MAX_PROMPT_READ = 1_000;
/** Most calls one scripted turn makes. */
const MAX_CALLS = 8;

/** A tool the request offers, as the scripted model reads it. */
export interface OfferedTool {
  name: string;
  description?: string;
  parameters?: JsonValue;
}

/** What the request's `tool_choice` allows: any call or none (`auto`), no call, at least one, or one tool. */
export type ScriptedToolChoice =
  | { type: "auto" }
  | { type: "none" }
  | { type: "required" }
  | { type: "tool"; name: string };

/** Words of tool names that say what the tool does. */
const VERBS = new Set(
  (
    "list create add post send delete remove update edit read write move copy search get set book cancel " +
    "convert translate resize query run schedule open close merge upload download"
  ).split(" "),
);

/** Words of tool names that say nothing about what the tool is for. */
const GENERIC = new Set("get set do run make fetch find tool call query api func function".split(" "));

/**
 * The calls a prompt needs, in the order it asks, to the tools among `offered` (at most 8, from
 * its first 1,000 characters); `now` dates the dates nobody gave. The work on the tools' schemas
 * is taken from `budget`: once it is spent, no more arguments are written (`budget.exhausted`).
 */
export function planCalls(
  prompt: string,
  offered: readonly OfferedTool[],
  choice: ScriptedToolChoice = { type: "auto" },
  now = 0,
  budget: CheckBudget = turnBudget(),
): ScriptedCall[] {
  if (choice.type === "none" || offered.length === 0) return [];
  const read = prompt.slice(0, MAX_PROMPT_READ);
  const allowed = choice.type === "tool" ? offered.filter((tool) => tool.name === choice.name) : offered;
  const byName = new Map(allowed.map((tool) => [tool.name, tool]));
  const calls: ScriptedCall[] = readPrompt(read)
    .map(callOf)
    .filter((call) => byName.has(call.name) && fits(call.arguments, byName.get(call.name)!.parameters, budget));
  const values = readValues(read);
  const scored = allowed
    .filter((tool) => !calls.some((call) => call.name === tool.name))
    .map((tool) => ({ tool, ...score(tool, values, budget) }))
    .filter(({ total }) => total > 0)
    .sort((a, b) => b.total - a.total);
  // Tools the prompt names, each by a word no better one's name has ("unit table" calls unit_table,
  // not convert_units too); else those it gives a value they take; failing those, the one its words
  // describe best. Once a phrasing the prompt reader knows chose the calls, only a tool the prompt
  // names is added: a value the chosen calls already take (a unit for convert_units) asks for no other tool.
  const taken = new Set(calls.flatMap((call) => wordsOf(call.name)));
  const namesTools = calls.length > 0 || scored.some(({ names }) => names.length > 0);
  // Unnamed, the one tool that fits best: a date the prompt gives fits a calendar's and a flight's
  // tools alike, and a model calls the one it means. A further named tool whose name has a verb
  // needs that verb too: "Post to Slack channel C01..." asks for no `slack_list_channels`.
  const chosen = namesTools
    ? scored.filter(({ tool, names }) => {
        if (!names.some((word) => ![...taken].some((other) => sameWord(other, word)))) return false;
        const verb = wordsOf(tool.name).find((word) => VERBS.has(word));
        if (taken.size > 0 && verb !== undefined && !values.commands.some((word) => sameWord(word, verb))) return false;
        for (const word of wordsOf(tool.name)) taken.add(word);
        return true;
      })
    : scored.filter(({ strong }) => strong).slice(0, 1);
  const fallback = calls.length > 0 ? [] : scored.slice(0, 1);
  const picks = (chosen.length > 0 ? chosen : fallback).map(({ tool }) => tool);
  // Each tool's arguments are written once: a required call tries again only the tools not tried.
  const filled = new Map<OfferedTool, { [key: string]: JsonValue } | undefined>();
  const fill = (tool: OfferedTool) => {
    if (!filled.has(tool)) filled.set(tool, fillArguments(tool.parameters, values, now, budget));
    return filled.get(tool);
  };
  for (const tool of picks) {
    const args = fill(tool);
    if (args === undefined) continue;
    calls.push({ name: tool.name, arguments: args });
    // "The weather in Paris and in Rome": a call per value the prompt lists.
    for (const more of parallelArguments(tool.parameters, args, values, read, budget))
      calls.push({ name: tool.name, arguments: more });
  }
  // A call is required and none was written: the first tool, best fitting first, whose arguments can be.
  if (calls.length === 0 && choice.type !== "auto")
    for (const tool of new Set([...scored.map((s) => s.tool), ...allowed])) {
      const args = fill(tool);
      if (args === undefined) continue;
      calls.push({ name: tool.name, arguments: args });
      break;
    }
  return calls.slice(0, MAX_CALLS);
}

/** How well a tool fits a prompt: its name's words in the prompt count most, then a value only it takes, then its description's words. */
function score(
  tool: OfferedTool,
  values: PromptValues,
  budget: CheckBudget,
): { total: number; strong: boolean; names: string[] } {
  // The words that ask, not those of a message, a quoted text or a statement the prompt gives.
  // Two words may be one of a name's ("look up": `dns_lookup`).
  const commands = values.commands;
  const prompt = [...commands.filter(meaningful), ...commands.slice(1).map((word, i) => `${commands[i]}${word}`)];
  // A name of generic words only (`run_query`) is named by them; `query_database` by "query" too
  // when nothing else names it (a generic word of five letters or more).
  const all = wordsOf(tool.name);
  const own = all.filter((word) => !GENERIC.has(word));
  const namedBy = (words: string[]) => words.filter((word) => prompt.some((p) => sameWord(p, word)));
  let names = namedBy(own.length > 0 ? own : all);
  if (names.length === 0) names = namedBy(all.filter((word) => GENERIC.has(word) && word.length >= 5));
  // "PR" names `get_pull_request`: an acronym of the name's own words.
  const initials = own.length >= 2 ? own.map((word) => word[0]).join("") : "";
  if (names.length === 0 && initials !== "" && values.acronyms.includes(initials)) names = [initials];
  const named = names.length;
  const fits = promptFits(tool.parameters, values, budget) ? 1 : 0;
  // What a property's name says it holds, the prompt holds: a place for `city`, in any language.
  const suits = fits === 0 ? promptSuits(tool.parameters, values, budget) : 0;
  const description = wordsOf(tool.description ?? "");
  // A set: a client's descriptions run to thousands of words (an agent's), each looked up once.
  const inPrompt = new Set(prompt);
  const described = new Set(description.filter((word) => word.length >= 5 && meaningful(word) && inPrompt.has(word)))
    .size;
  // A description is long and general (an agent's tools describe everything): two words, or it
  // says nothing; one word of a line of ten at most ("Run a container from an image.") says something.
  const says = described >= 2 || (described === 1 && description.length <= 10);
  const total = 3 * named + 2 * fits + suits + (says ? described : 0);
  return { total, strong: named > 0 || fits > 0, names };
}

/** The lower-case words of a name or a text: `lookup_order`, `getWeather`, `get-weather` give `lookup order`, `get weather`. */
function wordsOf(text: string): string[] {
  return [
    ...text
      .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
      .toLowerCase()
      .matchAll(/[\p{L}\p{N}]+/gu),
  ].map((m) => m[0]);
}

/** One word, or one the other begins with an ending (at least 4 letters): `order` and `orders`, not `time` and `timeout`. */
function sameWord(a: string, b: string): boolean {
  return a === b || (Math.min(a.length, b.length) >= 4 && sameStem(a, b));
}

/** Whether arguments the prompt reader wrote fit the tool's schema as the request declares it. */
function fits(args: { [key: string]: JsonValue }, parameters: JsonValue | undefined, budget: CheckBudget): boolean {
  if (parameters === undefined || typeof parameters !== "object" || parameters === null || Array.isArray(parameters))
    return true;
  return checkToolArguments(args, parameters as ToolSchema, { budget }).length === 0;
}

function callOf(ask: Ask): ScriptedCall {
  if (ask.tool === "current_time") return { name: ask.tool, arguments: { time_zone: ask.zone } };
  if (ask.tool === "calculate") return { name: ask.tool, arguments: { expression: ask.expression } };
  if (ask.tool === "unit_table")
    return {
      name: ask.tool,
      arguments: ask.values ? { from: ask.from, to: ask.to, values: ask.values } : { from: ask.from, to: ask.to },
    };
  return { name: ask.tool, arguments: { value: ask.value, from: ask.from, to: ask.to } };
}
