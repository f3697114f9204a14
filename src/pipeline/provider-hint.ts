import type { FramedMessage, Framing, FramingClass, FramingOptions } from "../framing/framing.ts";
import type { ChainProtocol } from "./framed-chain.ts";
import { detectProvider } from "../providers/provider-detect-stream.ts";
import type { Provider } from "../providers/registry.ts";
import type { ProviderDelta } from "../shared/deltas.ts";

/** Each protocol's name in a hint. */
const NAMES: { readonly [P in Provider]: string } = {
  openai: "OpenAI Chat Completions",
  "openai-responses": "OpenAI Responses",
  anthropic: "Anthropic Messages",
  gemini: "Gemini",
  bedrock: "Bedrock",
  cohere: "Cohere v2",
  ollama: "Ollama",
  "gemini-interactions": "Gemini Interactions",
};

/** The framing's cue that a body gave no message: what it began with and its content type. */
class Unframed {
  readonly start: string;
  readonly contentType: string | undefined;
  constructor(start: string, contentType: string | undefined) {
    this.start = start;
    this.contentType = contentType;
  }
}

/** How many bytes of a body are kept to tell what it was when no message came of it. */
const KEPT = 64;

const hinted = new Map<FramingClass, FramingClass>();

/**
 * `Framing` that also tells when a body that was not empty gave no message and does not begin
 * as any framing's (a plain-text error answered with status 200, which SSE reads as unknown
 * fields, skipped), or begins with markup (an HTML page, which NDJSON cuts into lines): at its end
 * it gives a cue message that {@link withProviderHint} turns into an `error`. A body of SSE
 * comments or fields without data (keep-alives), or an empty JSON array, gives none. Only its
 * first {@link KEPT} bytes are kept. Made once per framing. Not exported by the package.
 */
export function hintedFraming(Inner: FramingClass): FramingClass {
  let made = hinted.get(Inner);
  if (!made) {
    made = class implements Framing {
      readonly #inner: Framing;
      readonly #onMessage: (message: FramedMessage) => void;
      readonly #contentType: string | undefined;
      readonly #start = new Uint8Array(KEPT);
      #kept = 0;
      #framed = false;
      constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
        this.#onMessage = onMessage;
        this.#contentType = options.contentType;
        this.#inner = new Inner((message) => {
          this.#framed = true;
          onMessage(message);
        }, options);
      }
      feed(chunk: Uint8Array): void {
        if (this.#kept < KEPT) {
          const part = chunk.subarray(0, KEPT - this.#kept);
          this.#start.set(part, this.#kept);
          this.#kept += part.length;
        }
        this.#inner.feed(chunk);
      }
      end(): void {
        this.#inner.end();
        const start = new TextDecoder().decode(this.#start.subarray(0, this.#kept)).trimStart();
        // Markup is no framing's, even where one cut it into messages (NDJSON's lines).
        if (start[0] === "<" || (start && !this.#framed && !framed(start)))
          this.#onMessage({ data: "", value: new Unframed(start, this.#contentType) });
      }
    };
    hinted.set(Inner, made);
  }
  return made;
}

/** SSE's fields: a body that begins with one (keep-alives, an event without data), or with a part of one where it ended, is SSE. */
const FIELDS = ["data", "event", "id", "retry"];

/** Whether a body that gave no message begins as a framing's: an SSE comment or field, or JSON (an empty array). */
function framed(start: string): boolean {
  const name = /^[^:\r\n]*/.exec(start)![0];
  return /^[:[{]/.test(start) || FIELDS.some((field) => (name === start ? field.startsWith(name) : field === name));
}

/** What the body was, for a hint: its content type, and the first tag of markup (an HTML page's). */
function received({ start, contentType }: Unframed): string {
  const tag = /^<[^<>\n]{1,30}>?/.exec(start)?.[0];
  const what = [contentType && `content type ${contentType}`, tag && `it begins with ${JSON.stringify(tag)}`];
  const said = what.filter(Boolean).join(", ");
  return `The body is not a stream of events${said ? ` (${said})` : ""}`;
}

/**
 * `protocol` that says, with one `error` of code `unknown-provider`, when the body is not of the
 * provider named (`named`; for the detecting protocol, `undefined`, which tells the provider
 * itself, only of a body that gave no message): before the decoder's `done` or at the end of the
 * input, unless a message was one of the named protocol's (told by `detectProvider`; `[DONE]`, an
 * error event and an empty message tell nothing) or the decoder made text, reasoning, a call or a
 * finish, when
 *
 * - a message was another protocol's: the hint names it (`pass provider: "anthropic"`);
 * - the body gave no message and does not begin as any framing's ({@link hintedFraming}): the
 *   hint gives its content type and the first tag of markup, never more of it;
 * - the messages were of no protocol and the decoder read nothing of them but a `usage` (the AI
 *   SDK's stream parts: its `finish-step` has one) and errors of `malformed-payload` and
 *   `truncated-event`.
 *
 * Until then a `usage` (Anthropic's `message_delta` read as a Chat chunk), a `malformed-payload`
 * error (a line of another framing) and a `truncated-event` are held: the hint replaces them (and
 * those after it); else they go out in their order. At most 64 are held: then the hint is given at
 * once when a message was another protocol's, else they go out and no hint is. Another error waits
 * behind what is held, never replaced; every other delta goes out at once. What the main entry's `streamToolCalls` reads with;
 * the provider subpaths' `streamToolCalls` and `ToolCallChain` do not (their bundles' budgets).
 * Not exported by the package.
 */
export function withProviderHint(protocol: ChainProtocol, named: Provider | undefined): ChainProtocol {
  return {
    ...protocol,
    createDecoder: (emit, limits, chain) => {
      // Nothing to tell of the messages when no provider is named: the detection tells them.
      let settled = !named;
      let held: ProviderDelta[] = [];
      /** Another protocol a message was; whether one was of none; whether the decoder read an error of them (not a usage alone). */
      let foreign: Provider | undefined;
      let unknown = false;
      let read = false;
      let unframed: Unframed | undefined;
      /** Whether a hint was given: what it replaces is dropped from then on. */
      let replaced = false;
      // An AWS event stream read as another framing: Bedrock's, by its content type or its first byte (a length's).
      const eventStream = /eventstream/i.test(chain?.contentType ?? "");
      const settle = (message?: string): void => {
        settled = true;
        replaced = !!message;
        const out = held;
        held = [];
        if (message) emit({ type: "error", error: { code: "unknown-provider", message } });
        for (const delta of out) if (!(replaced && replaceable(delta))) emit(delta);
      };
      const verdict = (): void => {
        if (settled && !unframed) return;
        // Its length's first byte is 0 (a gzip body not decompressed begins with another control character).
        if (named !== "bedrock" && (eventStream || unframed?.start.charCodeAt(0) === 0)) foreign = "bedrock";
        const not = named ? `, not ${possessive(NAMES[named])}` : "";
        if (foreign && named)
          return settle(
            `The body's events look like ${possessive(NAMES[foreign])}${not}: pass provider: "${foreign}".`,
          );
        // A body that gave no message: said even when no provider is named.
        if (unframed) return settle(`${received(unframed)}${not}: check the URL and the provider option.`);
        settle(
          unknown && !read
            ? `None of the body's events is one of ${possessive(NAMES[named!])}: check the URL and the provider option.`
            : undefined,
        );
      };
      const decoder = protocol.createDecoder(
        (delta) => {
          if (!settled) {
            if (delta.type === "done") verdict();
            else if (delta.type !== "usage" && delta.type !== "error") settle();
            else {
              // A usage alone tells nothing: another protocol's objects may carry one (the AI SDK's `finish-step`).
              read ||= !replaceable(delta);
              // An error the decoder read waits behind what is held, never dropped with it.
              if (!held.length && !replaceable(delta)) return emit(delta);
              held.push(delta);
              // Bounded: past HELD, another protocol's messages get the hint now, else what is held goes out.
              if (held.length >= HELD) foreign ? verdict() : settle();
              return;
            }
          } else if (replaced && replaceable(delta)) return;
          emit(delta);
        },
        limits,
        chain,
      );
      return {
        decode: (message) => {
          if (message.value instanceof Unframed) return void (unframed = message.value);
          if (!settled) {
            const told = tell(message);
            if (told === named) settle();
            else if (told) foreign ??= told;
            else unknown ||= told === null;
          }
          decoder.decode(message);
        },
        end: (fault) => {
          decoder.end(fault);
          verdict();
        },
      };
    },
  };
}

/** The errors a decoder gives of another protocol's messages or framing: held, not a sign the decoder read anything. */
const HELD_ERRORS: readonly string[] = ["malformed-payload", "truncated-event"];

/** What a hint replaces: a usage, or an error of {@link HELD_ERRORS}. */
const replaceable = (delta: ProviderDelta): boolean =>
  delta.type === "usage" || (delta.type === "error" && HELD_ERRORS.includes(delta.error.code));

/** How many deltas are held at most until the body is told (a delta per line of another framing). */
const HELD = 64;

/** `name's`, or `names'`. */
const possessive = (name: string): string => `${name}'${name.endsWith("s") ? "" : "s"}`;

/** The protocol a message is, as `detectProvider` tells (an SSE line read as NDJSON by its data); `[DONE]` and an empty message tell nothing. */
function tell(message: FramedMessage): Provider | null | undefined {
  if (message.headers === undefined && message.value === undefined) {
    const data = message.data.trim();
    if (data === "" || data === "[DONE]") return undefined;
    const line = /^data: ?(.*)/.exec(data);
    if (line) return tell({ data: line[1]! });
  }
  return detectProvider(message);
}
