/**
 * What the scripted model decides: the calls a prompt needs (to the tools the request offers),
 * and, once their results are back, an answer written from those results and nothing else.
 *
 * @module
 */
import type { JsonValue } from "../../../../src/index.ts";
import type { ScriptedCall } from "./script.ts";
import type { TranscriptCall, TranscriptResult } from "./transcript.ts";

/** Longest piece of a result quoted in an answer, in characters. */
const MAX_QUOTE = 240;

/** Cohere's tool plan: what the model is about to call. */
export function toolPlan(calls: readonly ScriptedCall[]): string {
  return `I will use ${listed([...new Set(calls.map((call) => call.name))])} to answer this.`;
}

/** The answer to a prompt whose tools found nothing to call: what this model can do. */
export function helpText(offered: ReadonlySet<string>): string {
  const examples = [
    offered.has("current_time") ? 'the time in a city ("What time is it in Tokyo?")' : undefined,
    offered.has("calculate") ? 'arithmetic ("What is 17% of 230?")' : undefined,
    offered.has("convert_units") ? 'unit conversions ("How many km is 26.2 mi?")' : undefined,
    offered.has("unit_table") ? 'conversion tables ("A table of km to mi for 1, 5 and 10")' : undefined,
  ].filter((example) => example !== undefined);
  const others = [...offered].filter((name) => !WORKER_TOOLS.has(name));
  const calls = [
    examples.length > 0 ? `It calls the Worker's tools for ${examples.join(", ")}.` : undefined,
    others.length > 0
      ? `It calls a tool of the request (${listed(others.slice(0, 8))}${others.length > 8 ? ", ..." : ""}) when the prompt names it or gives a value only it takes, with arguments valid against its schema, and answers from the results; this prompt asked for none of them.`
      : undefined,
  ].filter((part) => part !== undefined);
  const can = calls.length > 0 ? calls.join(" ") : "This request offers no tools, so it has nothing to call.";
  return `This is the Worker's scripted model, which answers when no provider key is set. ${can} Set a provider key to talk to a real model.`;
}

const WORKER_TOOLS = new Set(["current_time", "calculate", "convert_units", "unit_table"]);

function listed(names: readonly string[]): string {
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}

/** The answer written from each call and the result it got (matched by id, else by name in order). */
export function answerFrom(calls: readonly TranscriptCall[], results: readonly TranscriptResult[]): string {
  const unmatched = [...results];
  const sentences = calls.map((call) => {
    let at = unmatched.findIndex((result) => call.id !== null && result.id === call.id);
    if (at < 0)
      at = unmatched.findIndex((result) => result.id === null && (result.name === null || result.name === call.name));
    const [result] = at >= 0 ? unmatched.splice(at, 1) : [];
    return result ? sentence(call, result) : `${call.name} gave no result.`;
  });
  return sentences.length > 0 ? `${sentences.join(" ")}` : "The tools returned nothing to answer from.";
}

function sentence(call: TranscriptCall, result: TranscriptResult): string {
  const args = object(call.arguments);
  const out = object(result.content);
  if (!result.isError) {
    if (call.name === "current_time" && typeof out["time"] === "string") {
      return `In ${out["time_zone"]} it is ${out["time"].slice(0, 5)} on ${out["weekday"]}, ${out["date"]} (UTC${out["utc_offset"]}).`;
    }
    if (call.name === "calculate" && typeof out["result"] === "number")
      return `${args["expression"]} = ${out["result"]}.`;
    if (call.name === "convert_units" && typeof out["value"] === "number")
      return `${args["value"]} ${args["from"]} is ${out["value"]} ${out["unit"]}.`;
    if (call.name === "unit_table" && Array.isArray(out["rows"])) {
      const rows = out["rows"].map((row) =>
        Array.isArray(row) ? `${row[0]} ${out["from"]} is ${row[1]} ${out["to"]}` : JSON.stringify(row),
      );
      return `${rows.join(", ")}.`;
    }
  }
  const quoted = typeof result.content === "string" ? result.content : JSON.stringify(result.content);
  const cut = quoted.length > MAX_QUOTE ? `${quoted.slice(0, MAX_QUOTE)}…` : quoted;
  return result.isError || looksLikeError(call.name, result.content)
    ? `${call.name} could not answer: ${cut}`
    : `${call.name} returned ${cut.trimEnd()}${/[.!?]$/.test(cut.trimEnd()) ? "" : "."}`;
}

/**
 * A result of one of the Worker's tools that is plain text where the tool returns an object is
 * the error message the loop sent back; any other tool may answer with text.
 */
function looksLikeError(name: string, content: JsonValue): boolean {
  return WORKER_TOOLS.has(name) && typeof content === "string";
}

function object(value: JsonValue): { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
