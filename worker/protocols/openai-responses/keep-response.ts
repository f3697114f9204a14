/**
 * How a `POST /v1/responses` response is stored (`store`, the default): once, when it completed,
 * never per event, and before the client sees its end, so that a client that reads
 * `response.completed` and sends the next turn at once (the AI SDK's tool loop) finds it. A
 * request with `store: false` costs nothing of this.
 *
 * @module
 */
import type { EncodableEvent, OpenAIResponse, ProtocolEncoder } from "../../../src/index.ts";
import { HttpError, invalidField } from "../../response/json-error.ts";
import { logUnexpected } from "../../response/log-error.ts";
import type { StoredResponses } from "../../resumable/stored-response-pool.ts";
import { storedInput } from "./conversation.ts";

/** A response to store: where, under which id, and its input (as JSON text, measured once). */
export interface Keeping {
  stored: StoredResponses;
  /** The stored id (./stored-ids.ts). */
  id: string;
  /**
   * The items the model read, as JSON: the earlier items of its `previous_response_id`, then the
   * stored input of its request. Kept apart from the response, so that an `item_reference` to
   * one of its output items does not read the conversation before it (the AI SDK references
   * every earlier step's output: its reads would grow with the square of the steps).
   */
  inputText: string;
}

/**
 * Whether and where the response to `body` is stored: not without `stored` (no `RESPONSES`
 * binding) or with `store: false`; not when its input alone is past `MAX_STORED_RESPONSE_BYTES`,
 * which is a 400 naming `store` when the client sent `store: true`; not while the isolate's
 * object holds `MAX_STORED_BYTES_PER_OBJECT` already, which is OpenAI's 429 `insufficient_quota`
 * (not retried) when the client sent `store: true`, before its provider is called.
 *
 * @example
 * ```ts
 * const keeping = await keepingOf(resolved, conversation.earlier, stored);
 * ```
 */
export async function keepingOf(
  body: Record<string, unknown>,
  earlier: readonly Record<string, unknown>[] | undefined,
  stored: StoredResponses | undefined,
): Promise<Keeping | undefined> {
  const asked = body["store"];
  if (!stored || asked === false) return undefined;
  if (stored.full) {
    if (asked === true) throw storeFull(stored.maxObjectBytes);
    return undefined;
  }
  const id = await stored.newId();
  const input = storedInput(id, body);
  const inputText = JSON.stringify(earlier ? [...earlier, ...input] : input);
  if (stored.fits(inputText)) return { stored, id, inputText };
  if (asked === true)
    throw invalidField(
      "store",
      `The conversation is larger than a stored response may be (MAX_STORED_RESPONSE_BYTES, ${stored.maxBytes} bytes): send \`store: false\` and the whole conversation in \`input\`.`,
    );
  return undefined;
}

/** The 429 of `store: true` while the object holds its `MAX_STORED_BYTES_PER_OBJECT`. */
const storeFull = (limit: number): HttpError =>
  new HttpError(
    429,
    {
      code: "store_quota_exceeded",
      field: "store",
      message: `The stored responses of this Worker's storage object take its bound already (MAX_STORED_BYTES_PER_OBJECT, ${limit} bytes): send \`store: false\` with the whole conversation in \`input\`, or delete stored responses you no longer need.`,
    },
    { "x-should-retry": "false" },
  );

/**
 * Stores `response` (completed or incomplete; a failed one is not kept) with its input, and says
 * whether it was kept. A response past `MAX_STORED_RESPONSE_BYTES` with its output is not kept;
 * a storage failure is logged, and the client still gets its answer. One that was not kept must
 * say `store: false` (its id is unknown to the next turn): {@link unkept}.
 *
 * @example
 * ```ts
 * if (keeping && !(await keepResponse(keeping, response))) unkept(response);
 * ```
 */
export function keepResponse(keeping: Keeping, response: OpenAIResponse | Record<string, unknown>): Promise<boolean> {
  const { status } = response as { status?: unknown };
  if (status !== "completed" && status !== "incomplete") return Promise.resolve(false);
  return keepJson(keeping, JSON.stringify(response));
}

/** {@link keepResponse} of a completed or incomplete response already in JSON. */
async function keepJson(keeping: Keeping, json: string): Promise<boolean> {
  try {
    const text = `{"input":[],"response":${json}}`;
    return await keeping.stored.keep(keeping.id, text, keeping.inputText);
  } catch (error) {
    logUnexpected(error, "storing a response");
    return false;
  }
}

/**
 * Marks `response` as not stored (`store: false`), as it was not, though asked to be.
 *
 * @example
 * ```ts
 * unkept(response).store; // false
 * ```
 */
export function unkept<T extends object>(response: T): T {
  (response as { store?: boolean }).store = false;
  return response;
}

const TERMINAL = ["event: response.completed\n", "event: response.incomplete\n", "event: response.failed\n"];

/**
 * An encoder whose answer stores its response: `encoder`'s terminal frame (`response.completed`
 * or `.incomplete`) is noted, and the chunk that carries it waits until the response is stored
 * ({@link KeepingEncoder.before}, `withHeartbeat`'s `before`: a step of the answer's one stream,
 * not a stream of its own). The response's JSON is the frame's own text, not parsed back.
 *
 * @example
 * ```ts
 * const keeper = new KeepingEncoder(new OpenAIResponsesEncoder(options), keeping);
 * const body = withHeartbeat(encodeAnswer(batches, keeper), timers, { before: keeper.before });
 * ```
 */
export class KeepingEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #inner: ProtocolEncoder<EncodableEvent>;
  readonly #keeping: Keeping;
  #terminal: string | undefined;
  #kept = false;

  /** Wraps `inner`, which writes the response `keeping` stores. */
  constructor(inner: ProtocolEncoder<EncodableEvent>, keeping: Keeping) {
    this.#inner = inner;
    this.#keeping = keeping;
  }

  /** The inner encoder wrote its last frame: the answer's stream ends with that chunk. */
  get ended(): boolean {
    return this.#inner.ended === true;
  }

  /** The inner encoder's frames, its terminal one noted. */
  encode(event: EncodableEvent, out: string[]): void {
    const from = out.length;
    this.#inner.encode(event, out);
    this.#note(out, from);
  }

  /** The inner encoder's end, its terminal one noted. */
  end(out: string[]): void {
    const from = out.length;
    this.#inner.end(out);
    this.#note(out, from);
  }

  /**
   * A chunk of this encoder's answer as it is written: the one that carries the terminal frame
   * once the response is stored (that frame saying `store: false` when it could not be); any
   * other as it is.
   */
  readonly before = (chunk: Uint8Array): Uint8Array | Promise<Uint8Array> => {
    const terminal = this.#terminal;
    if (terminal === undefined || this.#kept) return chunk;
    this.#kept = true;
    return this.#keep(chunk, terminal);
  };

  async #keep(chunk: Uint8Array, terminal: string): Promise<Uint8Array> {
    const own = terminalResponse(terminal);
    const kept = own
      ? own.status !== "failed" && (await keepJson(this.#keeping, own.json))
      : await keepResponse(this.#keeping, parseFrame(terminal).data.response);
    if (kept) return chunk;
    const frame = parseFrame(terminal);
    unkept(frame.data.response);
    return replaced(chunk, terminal, `${frame.head}${JSON.stringify(frame.data)}${frame.tail}`);
  }

  #note(out: readonly string[], from: number): void {
    // An inner encoder that says it has not ended wrote no terminal frame: no frame of it is read.
    if (this.#terminal !== undefined || this.#inner.ended === false) return;
    // `slice` and `===`: V8's `startsWith` costs more than the frame's encoding here.
    for (let i = from; i < out.length && this.#terminal === undefined; i++) {
      const frame = out[i]!;
      if (TERMINAL.some((start) => frame.slice(0, start.length) === start)) this.#terminal = frame;
    }
  }
}

/** A terminal frame's data as the encoder writes it: the response is its last field. */
const TERMINAL_DATA = /^\{"type":"response\.(completed|incomplete|failed)","sequence_number":\d+,"response":/;

/**
 * The status and the response's JSON text of a terminal frame written as {@link TERMINAL_DATA}
 * says (the status is the event's: `response.completed` carries a completed response), or
 * `undefined` for another shape, which is then parsed.
 */
function terminalResponse(frame: string): { status: string; json: string } | undefined {
  const start = frame.indexOf("\ndata: ") + "\ndata: ".length;
  const data = frame.slice(start, frame.indexOf("\n", start));
  const match = TERMINAL_DATA.exec(data);
  if (!match || data.at(-1) !== "}") return undefined;
  return { status: match[1]!, json: data.slice(match[0].length, -1) };
}

/** The response of a terminal frame (`event: ...\ndata: {"type":...,"response":{...}}\n\n`). */
function parseFrame(frame: string): { head: string; data: { response: Record<string, unknown> }; tail: string } {
  const start = frame.indexOf("\ndata: ") + "\ndata: ".length;
  const end = frame.indexOf("\n", start);
  const data = JSON.parse(frame.slice(start, end)) as { response: Record<string, unknown> };
  return { head: frame.slice(0, start), data, tail: frame.slice(end) };
}

/** `chunk` with the frame `from` in it written as `to` (a frame is never split across chunks). */
function replaced(chunk: Uint8Array, from: string, to: string): Uint8Array {
  const text = new TextDecoder().decode(chunk);
  const at = text.indexOf(from);
  if (at < 0) return chunk;
  return new TextEncoder().encode(text.slice(0, at) + to + text.slice(at + from.length));
}
