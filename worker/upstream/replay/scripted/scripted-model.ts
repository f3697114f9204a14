/**
 * The scripted model: the offline stand-in for a provider when no provider key is set, on every
 * endpoint (a request with tools whose prompt picks no recording, one without tools, one that
 * carries tool results, and run mode: `POST /v1/run`, `run: true` on `/v1/ui` and `/v1/ag-ui`).
 * It reads the provider request the Worker built (or the tool loop's next one), and answers in
 * that provider's real wire format:
 *
 * 1. a prompt gets calls to the tools the request offers that it asks for (./tool-plan.ts): the
 *    Worker's own tools by the phrasings it knows ("What time is it in Tokyo?"), any other tool
 *    that the prompt names or gives a value only it takes, with arguments valid against the
 *    tool's schema, taken from the prompt where they fit ("Where is my order ORD-1234?" gives
 *    `lookup_order` `{"order_id": "ORD-1234"}`);
 * 2. the request that carries their results gets a text answer written from those results, as
 *    the tools really returned them (an error is said to be one);
 * 3. anything else gets a text saying what this model can do.
 *
 * A failure of its own is an `HttpError` 500 `internal_error` (logged), which the Worker answers
 * as it is, never as a provider out of reach.
 *
 * The same request always gets the same bytes (ids, fragments and padding come from a seed of
 * the request), paced like a model on the Worker's timers.
 *
 * @module
 */
import type { Provider } from "../../../../src/index.ts";
import { HttpError } from "../../../response/json-error.ts";
import { logUnexpected } from "../../../response/log-error.ts";
import type { SendRequest, Timers } from "../../../runtime.ts";
import { replayEvents } from "../replay-upstream.ts";
import { answerFrom, helpText, toolPlan } from "./answers.ts";
import { Dice, seedOf, tokens } from "./pieces.ts";
import type { ScriptedTurn, ScriptWriter } from "./script.ts";
import { MAX_TURN_STEPS, turnBudget } from "./arguments/schema-parts.ts";
import { planCalls, type ScriptedToolChoice } from "./tool-plan.ts";
import { readTranscript } from "./transcript.ts";
import { scriptWriters } from "./writers/index.ts";

/** The name the scripted answers carry in `x-replay-recording`. */
export const SCRIPTED_MODEL = "scripted-model";

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** Mean delay between events, in milliseconds; 0 sends them back to back. */
  delayMs: number;
  timers: Timers;
  /** The clock of `created` fields. @defaultValue `Date.now` */
  now?: () => number;
  /** The request's `tool_choice`: `none` calls nothing, `required` or a named tool calls one whatever the prompt. @defaultValue auto */
  toolChoice?: ScriptedToolChoice;
}

/** A stand-in for `fetch` that answers `provider`'s requests as the scripted model. */
export function scriptedModel(provider: Provider, options: ScriptedModelOptions): SendRequest {
  const now = options.now ?? Date.now;
  return async (url, init) => {
    const request = new Request(url, init);
    const text = await request.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined; // not a request the Worker built: it reads as an empty conversation
    }
    let wire: ReturnType<ScriptWriter>;
    try {
      const turn = scriptedTurn(provider, body, modelOf(body, request.url), tokens(text), now(), options.toolChoice);
      wire = scriptWriters[provider](turn, new Dice(seedOf(`${provider}\n${text}`)));
    } catch (error) {
      // The model's own bug, not a provider out of reach: a 500 that says nothing of internals
      // (the request's protocol writes it in its error shape), logged for the operator.
      logUnexpected(error, "the offline scripted model");
      throw new HttpError(500, { code: "internal_error", message: "The offline scripted model failed to answer." });
    }
    return replayEvents(SCRIPTED_MODEL, wire.chunks, request.signal, options, wire.contentType);
  };
}

/** The answer when the tools' schemas took all of a turn's work before any arguments were written. */
const SPENT = `The offline scripted model calls none of the tools: writing arguments for their schemas took more than the ${MAX_TURN_STEPS.toLocaleString("en-US")} steps of work it gives one turn. Send smaller or simpler schemas (fewer branches, properties and enum values).`;

/** What the scripted model says to a request body of `provider`'s format. */
export function scriptedTurn(
  provider: Provider,
  body: unknown,
  model: string,
  inputTokens: number,
  now: number,
  toolChoice?: ScriptedToolChoice,
): ScriptedTurn {
  const transcript = readTranscript(provider, body);
  const offered = new Set(transcript.tools.map((tool) => tool.name));
  const base = { model, inputTokens, tools: transcript.tools, now, plan: "" };
  if (transcript.results.length > 0)
    return { ...base, text: answerFrom(transcript.calls, transcript.results), calls: [] };
  const budget = turnBudget();
  const calls = planCalls(transcript.prompt, transcript.tools, toolChoice, now, budget);
  if (calls.length === 0) return { ...base, text: budget.exhausted ? SPENT : helpText(offered), calls: [] };
  return { ...base, text: "", plan: toolPlan(calls), calls };
}

/** The model a request names: in its body, else in its URL (Gemini's `models/<id>:...`, Bedrock's `model/<id>/...`). */
function modelOf(body: unknown, url: string): string {
  const named = typeof body === "object" && body !== null ? (body as { model?: unknown }).model : undefined;
  if (typeof named === "string") return named;
  const match = /\/models?\/([^/:]+)/.exec(new URL(url).pathname);
  return match ? decodeURIComponent(match[1]!) : "scripted";
}
