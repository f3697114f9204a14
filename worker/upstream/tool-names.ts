/**
 * Tool names between a client and the provider. Each client protocol takes names by its own rule
 * (a Messages client up to 128 characters, as Claude Code's MCP tools `mcp__<server>__<tool>` need;
 * a Chat Completions client a leading digit; the AI SDK and AG-UI any string), and the provider
 * behind the Worker may take fewer, or fewer characters (Cohere no `-`, Gemini no leading digit):
 * each provider's rule is its `toolNames` (worker/upstream/providers/).
 * A name that breaks the provider's rule goes to it under a short name: the name with each
 * character the provider refuses as `_`, cut to its head and tail around a hash of the whole name,
 * `mcp__plugin_chrome-d_a03334b9_tools__performance_analyze_insight`. The short name is a function of
 * the name alone (a second hash only if two names of one request would meet), so the same name
 * gets the same short name on every turn; the calls the provider makes get their client names
 * back before the encoder sees them. Every model call goes through {@link withProviderToolNames}
 * (worker/services/), so every endpoint, resumable or not, run or not, sends only names the
 * provider takes.
 *
 * @module
 */
import type { EncodableEvent } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";
import type { Message, StreamRequest } from "../request/stream-request.ts";
import type { ToolNameRule } from "./providers/upstream-provider.ts";

/** The hash's length in a short name: 8 hex digits, 32 bits. */
const HASH = 8;
/** The head kept before the hash when the name is cut: enough for `mcp__<server>`. */
const HEAD = 20;

/** Whether `name` fits `rule`. */
export function fitsRule(name: string, rule: ToolNameRule): boolean {
  if (name === "" || name.length > rule.maxLength || !rule.first.test(name[0] ?? "")) return false;
  for (const char of name) if (!rule.char.test(char)) return false;
  return true;
}

/** FNV-1a over the UTF-16 code units: deterministic and synchronous (the request is read synchronously). */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(HASH, "0");
}

/** The short name of `name` under `rule`; `salt` above 0 only when a lower one met another name. */
export function shortName(name: string, rule: ToolNameRule, salt = 0): string {
  const clean = Array.from(name, (char) => (rule.char.test(char) ? char : "_")).join("");
  const tag = hash(salt === 0 ? name : `${name}\u0000${salt}`);
  const room = rule.maxLength - HASH - 1;
  // The tail holds the tool's own name, the head its server: the model reads both.
  const short =
    clean.length <= room
      ? `${clean}_${tag}`
      : `${clean.slice(0, HEAD)}_${tag}_${clean.slice(clean.length - (room - HEAD - 1))}`;
  // Every provider takes `_` first, and none refuses a letter, a digit or `_` inside.
  return rule.first.test(short[0] ?? "") ? short : `_${short.slice(1)}`;
}

/**
 * The names of one request both ways: a client's name to the one sent to the provider, and back.
 *
 * @example
 * ```ts
 * const names = new ToolNames(["mcp__github__list_pull_requests_for_the_current_repository_branch"], rule);
 * names.toClient(names.toProvider("mcp__github__list_pull_requests_for_the_current_repository_branch"));
 * ```
 */
export class ToolNames {
  readonly #out = new Map<string, string>();
  readonly #back = new Map<string, string>();

  /** The names of one request (its tools, the calls of its history, its `tool_choice`), under the provider's `rule`. */
  constructor(names: Iterable<string>, rule: ToolNameRule) {
    const all = new Set(names);
    const taken = new Set([...all].filter((name) => fitsRule(name, rule)));
    // Sorted, so that which of two meeting names takes the second hash does not depend on their order.
    for (const name of [...all].filter((name) => !taken.has(name)).sort()) {
      let salt = 0;
      let short = shortName(name, rule);
      while (taken.has(short)) short = shortName(name, rule, ++salt);
      taken.add(short);
      this.#out.set(name, short);
      this.#back.set(short, name);
    }
  }

  /** Whether any name is sent under another. */
  get renamed(): boolean {
    return this.#out.size > 0;
  }

  /** The name the provider is sent for a client's `name`. */
  toProvider(name: string): string {
    return this.#out.get(name) ?? name;
  }

  /** The client's name of a name the provider answered with (one it was not sent stays as it is). */
  toClient(name: string): string {
    return this.#back.get(name) ?? name;
  }
}

const named = (value: unknown): value is { name: string } =>
  typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string";

/** Every tool name of a request: its tools, the calls and results of earlier turns, a `tool_choice` naming one. */
function namesOf(request: StreamRequest): string[] {
  const names = request.tools.map((tool) => tool.name);
  for (const message of request.messages) {
    if (message.role === "assistant") names.push(...message.toolCalls.map((call) => call.name));
    if (message.role === "tool" && message.name !== undefined) names.push(message.name);
  }
  if (request.toolChoice?.type === "tool") names.push(request.toolChoice.name);
  return names;
}

/**
 * `request` with every tool name the provider is sent fitting its `rule`: the tools, the calls of
 * earlier turns, the results that name their call and a `tool_choice` naming a tool, renamed
 * alike (a call's `id`, which pairs it with its result, is kept). The same request when every
 * name fits.
 *
 * @example
 * ```ts
 * const { request: sent, names } = withProviderToolNames(request, provider.toolNames);
 * const http = provider.buildRequest(sent, target);
 * ```
 */
export function withProviderToolNames<R extends StreamRequest>(
  request: R,
  rule: ToolNameRule,
): { request: R; names: ToolNames } {
  const names = new ToolNames(namesOf(request), rule);
  if (!names.renamed) return { request, names };
  const to = (name: string): string => names.toProvider(name);
  const message = (entry: Message): Message => {
    if (entry.role === "assistant")
      return { ...entry, toolCalls: entry.toolCalls.map((call) => ({ ...call, name: to(call.name) })) };
    return entry.role === "tool" && entry.name !== undefined ? { ...entry, name: to(entry.name) } : entry;
  };
  const choice = request.toolChoice;
  return {
    names,
    request: {
      ...request,
      tools: request.tools.map((tool) => ({ ...tool, name: to(tool.name) })),
      messages: request.messages.map(message),
      ...(choice?.type === "tool" ? { toolChoice: { type: "tool", name: to(choice.name) } } : {}),
    },
  };
}

/** An event with the client's names of the calls it holds. */
function clientEvent<E extends EncodableEvent>(event: E, names: ToolNames): E {
  if (event.type === "finish")
    return {
      ...event,
      toolCalls: event.toolCalls.map((call) => ({ ...call, name: names.toClient(call.name) })),
      invalidToolCalls: event.invalidToolCalls.map((call) => ({ ...call, name: names.toClient(call.name) })),
    };
  if (event.type === "abort")
    return { ...event, discarded: event.discarded.map((call) => ({ ...call, name: names.toClient(call.name) })) };
  return named(event) ? { ...event, name: names.toClient(event.name) } : event;
}

/**
 * The provider's events, in arrays, with the client's tool names, for the encoder of the client's
 * protocol. The same stream when no name was renamed.
 *
 * @example
 * ```ts
 * const batches = clientNames(await openBatches(sent), names);
 * ```
 */
export function clientNames<E extends EncodableEvent>(
  batches: ReadableStream<readonly E[]>,
  names: ToolNames,
): ReadableStream<E[]> {
  // Unchanged, the arrays are the caller's own: typed as they came (mutable from the chain).
  if (!names.renamed) return batches as ReadableStream<E[]>;
  return mapChunks(batches, (batch) => batch.map((event) => clientEvent(event, names)));
}

/**
 * {@link clientNames} for events one at a time (a completion read whole, the tool loop).
 *
 * @example
 * ```ts
 * const events = clientEventNames(await openEvents(sent), names);
 * ```
 */
export function clientEventNames<E extends EncodableEvent>(
  events: ReadableStream<E>,
  names: ToolNames,
): ReadableStream<E> {
  if (!names.renamed) return events;
  return events.pipeThrough(
    new TransformStream<E, E>({ transform: (event, controller) => controller.enqueue(clientEvent(event, names)) }),
  );
}
