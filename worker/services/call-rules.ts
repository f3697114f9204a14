/**
 * What an answer's calls are held to on every client protocol: the tools allowed and the most
 * calls (`allowed_tools`, a forced tool, a choice of none; Chat's and Responses'
 * `parallel_tool_calls: false`, Messages' `disable_parallel_tool_use: true`). The calls left out
 * go with all their events, so each encoder's dense indexes stay contiguous from 0. Gemini signs
 * only the first function call of a step, and Gemini 3 refuses the next turn unless the first call
 * of each step comes back signed: a signature on a call left out goes to the first call kept in its
 * place (on its `providerMetadata`, and in its id where the id is still to be given,
 * ../protocols/thought-signatures.ts), so the history the client sends back is signed where Gemini checks it.
 *
 * @module
 */
import type { EncodableEvent, ToolCallEvent } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { callKey, extraContentText, idWithExtraContent, idWithSignature } from "./signed-ids.ts";

/** What an answer's calls are held to: the tools allowed, the most calls. */
export interface CallRules {
  /** The tools the model may call: an `allowed_tools` choice's, or the one a `function` or `custom` choice forces. */
  allowedTools?: ReadonlySet<string>;
  /** The most calls the answer may hold: none with a choice of `none`, one with one call at a time. */
  mostCalls?: number;
  /**
   * An answer that stopped for calls and has neither text nor a call left fails, as a model error
   * saying why ({@link NOTHING_LEFT}), instead of ending empty: a completed response, a `stop` or an
   * `end_turn` with no content has no place to say it. Every client protocol's rules set it.
   */
  failEmpty?: true;
}

/**
 * Why an answer fails when the calls left out were all it held: the model's error, as Open
 * Responses allows a call of a tool not allowed to be rejected ("treating it as a model error").
 * It names no tool: the name is the model's, and may be none of the request's.
 */
export const NOTHING_LEFT = {
  code: "provider-error",
  message:
    "The model answered only with tool calls that this request's tool_choice does not allow: they were left out, and nothing was left to answer with.",
} as const;

/**
 * The rules a Chat or Messages request's calls are held to: none with a choice of `none` (a
 * provider or compatible server may call all the same, and the client said no call), only the tool
 * a `tool` choice forces (Chat's `{type: "function"}`, Messages' `{type: "tool"}`: a call of another
 * is not the client's to run), only those of Chat's `allowed_tools` (`allowed`), and the first call
 * with one call at a time (`parallelToolCalls: false`, which the request parsers set only with a
 * choice other than `none`, as a provider without a field for it may answer with several). An
 * answer those calls were all of is an error ({@link CallRules.failEmpty}): Chat's error chunk
 * and Messages' `error` event, which the SDKs throw, or their 502 unstreamed.
 */
export function requestRules(
  { toolChoice, parallelToolCalls }: StreamRequest,
  allowed?: ReadonlySet<string>,
): CallRules {
  const forced = toolChoice?.type === "tool" ? new Set([toolChoice.name]) : allowed;
  const mostCalls = toolChoice?.type === "none" ? 0 : parallelToolCalls === false ? 1 : undefined;
  return { ...(forced && { allowedTools: forced }), ...(mostCalls !== undefined && { mostCalls }), failEmpty: true };
}

/**
 * The rules on calls enforced on what the model answered. With `tool_choice: {type:
 * "allowed_tools"}` only the allowed tools were offered to the provider, and a call of any other (a
 * model that names a tool of an earlier turn) is left out of the response, with all its events,
 * and out of the `finish`'s calls: "any tool call to a tool not listed MUST be rejected or
 * suppressed by the server" (Open Responses). A call past `mostCalls` is left out the same way: a
 * provider may not hold to `tool_choice: "none"`, and one without a field for `parallel_tool_calls`
 * may make more. A call the provider ran itself is neither, and one it withdrew (cut off by
 * Anthropic's fallback) takes no place of `mostCalls`. A finish of reason `tool-calls` with no
 * call left is a `stop`.
 */
export function allowedCalls(
  batches: ReadableStream<readonly EncodableEvent[]>,
  rules: CallRules,
): ReadableStream<readonly EncodableEvent[]> {
  if (!limitsCalls(rules)) return batches;
  const kept = keeper(rules);
  return mapChunks(batches, (batch): readonly EncodableEvent[] => batch.flatMap(kept));
}

/** Whether the rules leave any call out: else the answer passes as it is. */
export const limitsCalls = ({ allowedTools, mostCalls }: CallRules): boolean =>
  allowedTools !== undefined || mostCalls !== undefined;

/**
 * {@link allowedCalls} over one model call of a tool loop, as `runToolLoop`'s `beforeTools`
 * stage (one per step): a call left out never reaches the loop's runner, so the Worker never runs
 * a tool the request's `tool_choice` did not allow, and the next request sends the turn without it.
 */
export class AllowedCallsStream extends TransformStream<ToolCallEvent, ToolCallEvent> {
  /** A stage holding one model call's events to `rules`. */
  constructor(rules: CallRules) {
    const kept = keeper(rules);
    super({
      transform(event, out) {
        for (const each of kept(event)) out.enqueue(each as ToolCallEvent);
      },
    });
  }
}

/** Each event of one answer as the rules leave it: none, or itself or its changed copy, after the error of an empty answer. */
function keeper({ allowedTools, mostCalls, failEmpty }: CallRules): (event: EncodableEvent) => EncodableEvent[] {
  const calls: Calls = {
    allowed: allowedTools,
    most: mostCalls ?? Infinity,
    kept: new Set(),
    suppressed: new Set(),
    withdrawn: new Set(),
    signed: false,
    ...(failEmpty && { failEmpty }),
  };
  return (event) => keep(event, calls);
}

/** The rules, and the calls kept and left out so far, by {@link callKey}. */
interface Calls {
  allowed: ReadonlySet<string> | undefined;
  most: number;
  kept: Set<string>;
  suppressed: Set<string>;
  /** Kept calls the provider withdrew (Anthropic's fallback): shown if begun, but none counts toward `most`. */
  withdrawn: Set<string>;
  /** A kept call carries Gemini's signature of its own. */
  signed: boolean;
  /** {@link CallRules.failEmpty}. */
  failEmpty?: true;
  /** Gemini's signature of a call left out, the key of the kept call that carries it instead, its id. */
  moved?: { signature: Signature; heir?: string; id?: string };
}

/** A call's signature and the `providerMetadata` key it is under. */
type Signature = readonly ["thoughtSignature", string] | readonly ["extra_content", object];

/**
 * Gemini's signature on a call (its `providerMetadata`): `thoughtSignature` (src/providers/gemini),
 * or the `extra_content` its OpenAI-compatible endpoint signs the step's first call with.
 */
const signatureOf = (call: object): Signature | undefined => {
  const metadata = (call as { providerMetadata?: Record<string, unknown> }).providerMetadata;
  const signature = metadata?.["thoughtSignature"];
  if (typeof signature === "string") return ["thoughtSignature", signature];
  const extra = metadata?.["extra_content"];
  return extraContentText(extra) !== undefined ? ["extra_content", extra as object] : undefined;
};

/**
 * A kept call's event with the signature of a call left out before it, when it is the first kept
 * call without one of its own (a call the provider ran is not a function call Gemini checks).
 */
function signed<E extends { index: number; choice?: number; id: string | null }>(event: E, calls: Calls): E {
  const { moved } = calls;
  const own = signatureOf(event);
  if (own !== undefined || calls.signed || !moved || (event as { providerExecuted?: true }).providerExecuted)
    return event;
  moved.heir ??= callKey(event);
  if (moved.heir !== callKey(event)) return event;
  const metadata = (event as { providerMetadata?: Record<string, unknown> }).providerMetadata;
  const [key, value] = moved.signature;
  // An OpenAI-compatible call has the provider's id, which goes back in front of the content.
  const id =
    key === "thoughtSignature"
      ? (event.id ?? (moved.id ??= idWithSignature(value)))
      : (moved.id ??= idWithExtraContent(event.id, extraContentText(value)!));
  return { ...event, id, providerMetadata: { ...metadata, [key]: value } };
}

/** The same objects in the same order: nothing left out or changed. */
const same = (a: readonly object[], b: readonly object[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/** Whether a call is kept: decided at its first event, by its name and the calls kept before it. */
function kept(call: { index: number; choice?: number; name: string; providerExecuted?: true }, calls: Calls): boolean {
  const key = callKey(call);
  if (calls.kept.has(key)) return true;
  if (calls.suppressed.has(key)) return false;
  // A call the provider ran is neither: it ran whatever the choice, and its result blocks name it.
  if (call.providerExecuted === true) return true;
  const counted = calls.kept.size - calls.withdrawn.size;
  if ((calls.allowed === undefined || calls.allowed.has(call.name)) && counted < calls.most) {
    calls.kept.add(key);
    return true;
  }
  calls.suppressed.add(key);
  return false;
}

function keep(event: EncodableEvent, calls: Calls): EncodableEvent[] {
  switch (event.type) {
    case "tool-call-start":
    case "tool-call":
    case "invalid-tool-call":
    case "tool-call-violation": {
      const signature = signatureOf(event);
      if (!kept(event, calls)) {
        if (signature !== undefined && !calls.signed) calls.moved ??= { signature };
        return [];
      }
      // A call cut off by a fallback is no call to run: the fallback model's call takes its place.
      if (event.type === "invalid-tool-call" && event.error.code === "withdrawn") calls.withdrawn.add(callKey(event));
      if (signature !== undefined && callKey(event) !== calls.moved?.heir) calls.signed = true;
      return [signed(event, calls)];
    }
    case "tool-call-delta":
      return calls.suppressed.has(callKey(event)) ? [] : [event];
    case "finish": {
      const toolCalls = event.toolCalls.filter((call) => kept(call, calls)).map((call) => signed(call, calls));
      const invalidToolCalls = event.invalidToolCalls
        .filter((call) => kept(call, calls))
        .map((call) => signed(call, calls));
      if (same(toolCalls, event.toolCalls) && same(invalidToolCalls, event.invalidToolCalls)) return [event];
      const reason = event.reason === "tool-calls" && toolCalls.length === 0 ? "stop" : event.reason;
      const finish = { ...event, toolCalls, invalidToolCalls, reason };
      // Stopped to have its calls run, with none left and no text: an empty answer says nothing of why.
      const empty = event.reason === "tool-calls" && toolCalls.length + invalidToolCalls.length === 0 && !event.text;
      return calls.failEmpty && empty ? [{ type: "error", error: NOTHING_LEFT }, finish] : [finish];
    }
    default:
      return [event];
  }
}
