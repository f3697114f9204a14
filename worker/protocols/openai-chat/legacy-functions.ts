/**
 * OpenAI Chat's deprecated function calling, which OpenAI still serves and older clients still send
 * (LangChain's older OpenAI classes, instructor's FUNCTIONS mode): `functions` and `function_call`
 * in the request, an assistant message's `function_call` and a `role: "function"` message (its
 * `name`, its `content`) in the history. They are read as `tools`, `tool_choice`, a tool call and
 * its result (ids minted here, `function_call_<message index>`, so a provider that pairs calls
 * and results by id gets a pair that matches), and the answer goes back in the legacy shape:
 * `message.function_call` / `delta.function_call` `{name, arguments}` and `finish_reason:
 * "function_call"`, one call at most, as OpenAI's legacy mode never calls in parallel (the request
 * asks for one call at a time: OpenAI is told, and ../../services/call-rules.ts leaves the
 * provider's later calls out, as it does for `parallel_tool_calls: false`).
 *
 * @module
 */
import type { EncodableEvent, JsonValue, OpenAIChatCompletion, ProtocolEncoder } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { argumentsOf, arrayAt, CHAT_BOUNDS, objectAt, stringAt, toolNameAt } from "../client-request.ts";

/** A Chat body with its legacy request fields read as `tools` and `tool_choice`, and whether it had them. */
export interface LegacyFields {
  fields: Record<string, unknown>;
  /** The body had `functions`: the answer goes back in the legacy shape. */
  legacy: boolean;
}

const given = (fields: Record<string, unknown>, key: string): unknown => own(fields, key) ?? undefined;

/**
 * `fields` with `functions` as `tools` and `function_call` as `tool_choice`; a 400 naming the field
 * for `functions` with `tools` or `tool_choice` (one form or the other), for `function_call` without
 * `functions` (OpenAI's own 400), and for a `function_call` that is not `none`, `auto` or `{name}`.
 */
export function legacyFields(fields: Record<string, unknown>): LegacyFields {
  const functions = given(fields, "functions");
  const choice = given(fields, "function_call");
  if (functions === undefined) {
    if (choice !== undefined)
      throw invalidField("function_call", "`function_call` is only allowed when `functions` are specified.");
    return { fields, legacy: false };
  }
  for (const modern of ["tools", "tool_choice"])
    if (given(fields, modern) !== undefined)
      throw invalidField(
        modern,
        `\`${modern}\` cannot be sent with \`functions\` (deprecated): send \`tools\` and \`tool_choice\`, or \`functions\` and \`function_call\`.`,
      );
  const { functions: _functions, function_call: _choice, ...rest } = fields;
  // Each function as a tool: its fields are checked as a tool's, named back by legacyField.
  const tools = arrayAt(functions, "functions").map((fn, i) => ({
    type: "function",
    function: objectAt(fn, `functions[${i}]`),
  }));
  return {
    fields: { ...rest, tools, ...(choice !== undefined && { tool_choice: toolChoiceOf(choice) }) },
    legacy: true,
  };
}

function toolChoiceOf(choice: unknown): unknown {
  if (choice === "none" || choice === "auto") return choice;
  if (typeof choice !== "object" || choice === null || Array.isArray(choice))
    throw invalidField("function_call", "`function_call` must be none, auto or {name}.");
  const name = stringAt(own(choice as Record<string, unknown>, "name"), "function_call.name");
  return { type: "function", function: { name } };
}

/** A field the checks name in the translated body, as a legacy client named it (`tools[0].function.name` is `functions[0].name`). */
export function legacyField(field: string): string {
  if (field.startsWith("tool_choice")) return `function_call${field.slice("tool_choice.function".length)}`;
  return field.replace(/^tools\[(\d+)\]\.function(?=$|[.[])/, "functions[$1]").replace(/^tools(?=$|[.[])/, "functions");
}

/** The calls of a history's legacy messages whose results are still to come: their ids and names. */
export class LegacyCalls {
  readonly #open: { id: string; name: string }[] = [];

  /**
   * An assistant message's `function_call` as a tool call with a minted id, or none; a 400 naming
   * its field when it is not `{name, arguments}` or the message has `tool_calls` too.
   */
  callOf(
    message: Record<string, unknown>,
    path: string,
    index: number,
    hasToolCalls: boolean,
  ): { id: string; name: string; arguments: JsonValue }[] {
    const value = given(message, "function_call");
    if (value === undefined) return [];
    const at = `${path}.function_call`;
    if (hasToolCalls) throw invalidField(at, `\`${at}\` cannot be sent with \`tool_calls\`: one or the other.`);
    const call = objectAt(value, at);
    const name = toolNameAt(own(call, "name"), `${at}.name`, CHAT_BOUNDS);
    const args = argumentsOf(stringAt(own(call, "arguments") ?? "{}", `${at}.arguments`), `${at}.arguments`);
    const id = `function_call_${index}`;
    this.#open.push({ id, name });
    return [{ id, name, arguments: args }];
  }

  /**
   * A `role: "function"` message (`name`, `content` text or null) as the result of the legacy call
   * it answers, the latest still open (OpenAI pairs it with the call just before it); a 400 naming it
   * when no call is open or its `name` is not that call's.
   */
  resultOf(message: Record<string, unknown>, path: string): { role: "tool"; tool_call_id: string; content: string } {
    const name = stringAt(own(message, "name"), `${path}.name`);
    const content = given(message, "content") === undefined ? "" : stringAt(own(message, "content"), `${path}.content`);
    const call = this.#open.pop();
    if (call === undefined)
      throw invalidField(
        path,
        `\`${path}\` is a \`function\` message with no assistant \`function_call\` before it for it to answer.`,
      );
    if (call.name !== name)
      throw invalidField(`${path}.name`, `\`${path}.name\` must name the function the call before it called.`);
    return { role: "tool", tool_call_id: call.id, content };
  }
}

/** A `chat.completion` in the legacy shape: a choice's one call as `message.function_call`, its finish `function_call`. */
export function legacyCompletion(completion: OpenAIChatCompletion): Record<string, unknown> {
  return {
    ...completion,
    choices: completion.choices.map((choice) => {
      const { tool_calls: calls, ...message } = choice.message;
      const call = calls?.[0];
      if (call === undefined || call.type !== "function") return choice;
      const { name, arguments: args } = call.function;
      const finish = choice.finish_reason === "tool_calls" ? "function_call" : choice.finish_reason;
      return { ...choice, message: { ...message, function_call: { name, arguments: args } }, finish_reason: finish };
    }),
  };
}

/**
 * The Chat encoder's chunks in the legacy shape: a frame of a call (`delta.tool_calls`, one call:
 * the rules leave the rest out) becomes `delta.function_call` `{name, arguments}` (the name in the
 * first only), and `finish_reason: "tool_calls"` becomes `"function_call"`. Only those frames are
 * read back and written again: `"tool_calls"` with its quotes cannot be inside a JSON string.
 */
export class LegacyFunctionEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #inner: ProtocolEncoder<EncodableEvent>;
  readonly #frames: string[] = [];

  /** Wraps `inner`, an `OpenAIChatEncoder`. */
  constructor(inner: ProtocolEncoder<EncodableEvent>) {
    this.#inner = inner;
  }

  /** Appends the legacy frames of one event to `out`. */
  encode(event: EncodableEvent, out: string[]): void {
    this.#inner.encode(event, this.#frames);
    this.#flush(out);
  }

  /** Appends what the end of the input adds. */
  end(out: string[]): void {
    this.#inner.end(this.#frames);
    this.#flush(out);
  }

  /** True once the inner encoder ended. */
  get ended(): boolean {
    return this.#inner.ended ?? false;
  }

  #flush(out: string[]): void {
    for (const frame of this.#frames) out.push(frame.includes('"tool_calls"') ? legacyFrame(frame) : frame);
    this.#frames.length = 0;
  }
}

function legacyFrame(frame: string): string {
  const chunk = JSON.parse(frame.slice("data: ".length)) as { choices?: Record<string, unknown>[] };
  for (const choice of chunk.choices ?? []) {
    if (choice["finish_reason"] === "tool_calls") choice["finish_reason"] = "function_call";
    const delta = choice["delta"] as Record<string, unknown> | undefined;
    const calls = delta?.["tool_calls"] as { function?: { name?: string; arguments?: string } }[] | undefined;
    if (delta === undefined || calls === undefined) continue;
    delete delta["tool_calls"];
    const fn = calls[0]?.function;
    if (fn) delta["function_call"] = fn.name === undefined ? { arguments: fn.arguments } : fn;
  }
  return `data: ${JSON.stringify(chunk)}\n\n`;
}
