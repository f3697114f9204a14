import { streamToolCalls, type Provider, type StreamToolCallsOptions, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/**
 * The fault matrix of issue 6, one row per fault and provider framing. Every row checks the
 * same promise: every text delta and every call completed before the fault is delivered, the
 * calls still open are discarded (listed on the `abort`, never parsed), and a typed `error` or
 * `abort` says what happened. Rows that are not faults (line endings, comments) check that the
 * stream gives the same events as its plain LF form.
 */

/** One provider's wire framing, built from parts; each call of `framing(p)` numbers afresh. */
interface Framing {
  /** What opens the response (message_start, response.created), possibly nothing. */
  begin(): string[];
  text(text: string): string[];
  /** A call that completes here, before whatever follows (in Chat, once a later index begins: the prefix's open call does). */
  completeCall?(index: number, id: string, name: string, args: string): string[];
  /** A call `{"city": ...}` that starts and gets the first characters of the city, but does not complete. */
  openCall(index: number, id: string, name: string, city: string): string[];
  /** More characters of the open call's city. */
  moreCity(index: number, more: string): string[];
  /** Ends the open call's arguments (`city` is the whole value); where the framing completes calls itself, completes it. */
  closeCall(index: number, id: string, name: string, city: string): string[];
  finish(): string[];
  /** An error the provider sends inside the stream. */
  error(): string[];
  /** An event whose data is not JSON. */
  invalidPayload(): string[];
}

const event = (type: string, payload: unknown): string => `event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`;
const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const chat = (delta: Record<string, unknown>, finish: string | null = null): string =>
  data({ id: "chatcmpl-f", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
const geminiParts = (parts: unknown[], extra: Record<string, unknown> = {}): string =>
  data({ candidates: [{ content: { role: "model", parts }, ...extra }] });

/** The SSE protocols the matrix builds bodies for (the other framings have their own fault cases, in test/framing/). */
type SSEProvider = "openai" | "anthropic" | "gemini" | "openai-responses";

function framing(provider: SSEProvider): Framing {
  switch (provider) {
    case "openai":
      return {
        begin: () => [],
        text: (text) => [chat({ content: text })],
        completeCall: (index, id, name, args) => [
          chat({ tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] }),
        ],
        openCall: (index, id, name, city) => [
          chat({ tool_calls: [{ index, id, type: "function", function: { name, arguments: `{"city":"${city}` } }] }),
        ],
        moreCity: (index, more) => [chat({ tool_calls: [{ index, function: { arguments: more } }] })],
        closeCall: (index) => [chat({ tool_calls: [{ index, function: { arguments: '"}' } }] })],
        finish: () => [chat({}, "tool_calls"), "data: [DONE]\n\n"],
        error: () => ['event: error\ndata: {"error":{"message":"Internal error","type":"server_error"}}\n\n'],
        invalidPayload: () => ["data: {not json\n\n"],
      };
    case "anthropic": {
      let block = 0;
      const blockOf = new Map<number, number>();
      return {
        begin: () => [
          event("message_start", {
            type: "message_start",
            message: { id: "msg_f", usage: { input_tokens: 3, output_tokens: 1 } },
          }),
        ],
        text: (text) => {
          const index = block++;
          return [
            event("content_block_start", {
              type: "content_block_start",
              index,
              content_block: { type: "text", text: "" },
            }),
            event("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text } }),
            event("content_block_stop", { type: "content_block_stop", index }),
          ];
        },
        completeCall: (_index, id, name, args) => {
          const at = block++;
          return [
            event("content_block_start", {
              type: "content_block_start",
              index: at,
              content_block: { type: "tool_use", id, name, input: {} },
            }),
            event("content_block_delta", {
              type: "content_block_delta",
              index: at,
              delta: { type: "input_json_delta", partial_json: args },
            }),
            event("content_block_stop", { type: "content_block_stop", index: at }),
          ];
        },
        openCall: (index, id, name, city) => {
          const at = block++;
          blockOf.set(index, at);
          return [
            event("content_block_start", {
              type: "content_block_start",
              index: at,
              content_block: { type: "tool_use", id, name, input: {} },
            }),
            event("content_block_delta", {
              type: "content_block_delta",
              index: at,
              delta: { type: "input_json_delta", partial_json: `{"city":"${city}` },
            }),
          ];
        },
        moreCity: (index, more) => [
          event("content_block_delta", {
            type: "content_block_delta",
            index: blockOf.get(index),
            delta: { type: "input_json_delta", partial_json: more },
          }),
        ],
        closeCall: (index) => [
          event("content_block_delta", {
            type: "content_block_delta",
            index: blockOf.get(index),
            delta: { type: "input_json_delta", partial_json: '"}' },
          }),
          event("content_block_stop", { type: "content_block_stop", index: blockOf.get(index) }),
        ],
        finish: () => [
          event("message_delta", {
            type: "message_delta",
            delta: { stop_reason: "tool_use" },
            usage: { output_tokens: 9 },
          }),
          event("message_stop", { type: "message_stop" }),
        ],
        error: () => [event("error", { type: "error", error: { type: "overloaded_error", message: "Overloaded" } })],
        invalidPayload: () => ["event: content_block_delta\ndata: {not json\n\n"],
      };
    }
    case "gemini":
      return {
        begin: () => [],
        text: (text) => [geminiParts([{ text }])],
        completeCall: (_index, _id, name, args) => [geminiParts([{ functionCall: { name, args: JSON.parse(args) } }])],
        // Vertex AI streams arguments as partialArgs; the call stays open until a part without willContinue.
        openCall: (_index, _id, name, city) => [
          geminiParts([{ functionCall: { name, willContinue: true } }]),
          geminiParts([
            {
              functionCall: {
                partialArgs: [{ jsonPath: "$.city", stringValue: city, willContinue: true }],
                willContinue: true,
              },
            },
          ]),
        ],
        moreCity: (_index, more) => [
          geminiParts([
            {
              functionCall: {
                partialArgs: [{ jsonPath: "$.city", stringValue: more, willContinue: true }],
                willContinue: true,
              },
            },
          ]),
        ],
        closeCall: () => [geminiParts([{ functionCall: {} }])],
        finish: () => [geminiParts([{ text: "" }], { finishReason: "STOP" })],
        error: () => [data({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } })],
        invalidPayload: () => ["data: {not json\n\n"],
      };
    case "openai-responses": {
      let sequence = 0;
      const numbered = (payload: Record<string, unknown>): string =>
        event(String(payload["type"]), { ...payload, sequence_number: sequence++ });
      const item = (index: number): string => `fc_${index}`;
      const done = (index: number, id: string, name: string, args: string): string[] => [
        numbered({
          type: "response.function_call_arguments.done",
          output_index: index,
          item_id: item(index),
          arguments: args,
        }),
        numbered({
          type: "response.output_item.done",
          output_index: index,
          item: { id: item(index), type: "function_call", call_id: id, name, arguments: args },
        }),
      ];
      return {
        begin: () => [numbered({ type: "response.created", response: { status: "in_progress" } })],
        text: (text) => [
          numbered({
            type: "response.output_text.delta",
            output_index: 900,
            item_id: "msg_1",
            content_index: 0,
            delta: text,
          }),
        ],
        completeCall: (index, id, name, args) => [
          numbered({
            type: "response.output_item.added",
            output_index: index,
            item: { id: item(index), type: "function_call", call_id: id, name, arguments: "" },
          }),
          numbered({
            type: "response.function_call_arguments.delta",
            output_index: index,
            item_id: item(index),
            delta: args,
          }),
          ...done(index, id, name, args),
        ],
        openCall: (index, id, name, city) => [
          numbered({
            type: "response.output_item.added",
            output_index: index,
            item: { id: item(index), type: "function_call", call_id: id, name, arguments: "" },
          }),
          numbered({
            type: "response.function_call_arguments.delta",
            output_index: index,
            item_id: item(index),
            delta: `{"city":"${city}`,
          }),
        ],
        moreCity: (index, more) => [
          numbered({
            type: "response.function_call_arguments.delta",
            output_index: index,
            item_id: item(index),
            delta: more,
          }),
        ],
        closeCall: (index, id, name, city) => [
          numbered({
            type: "response.function_call_arguments.delta",
            output_index: index,
            item_id: item(index),
            delta: '"}',
          }),
          ...done(index, id, name, JSON.stringify({ city })),
        ],
        finish: () => [numbered({ type: "response.completed", response: { status: "completed" } })],
        error: () => [numbered({ type: "error", code: "server_error", message: "The server had an error." })],
        invalidPayload: () => ["event: response.output_text.delta\ndata: {not json\n\n"],
      };
    }
  }
}

const providers: SSEProvider[] = ["openai", "anthropic", "gemini", "openai-responses"];

/** What a row expects, summarized from the events. */
interface Outcome {
  /** The text deltas, joined. */
  text: string;
  /** Completed calls as `name args-JSON`, in order. */
  calls: string[];
  /** Names of the calls the abort discarded. */
  discarded: string[];
  /** `finish`, or `abort:<reason>` (with `:<code>` when the abort carries an error). */
  end: string;
  /** Codes of the `error` events, in order. */
  errors: string[];
}

function outcome(events: readonly ToolCallEvent[]): Outcome {
  const last = events.at(-1);
  return {
    text: events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join(""),
    calls: events.flatMap((e) => (e.type === "tool-call" ? [`${e.name} ${JSON.stringify(e.arguments)}`] : [])),
    discarded: last?.type === "abort" ? last.discarded.map((call) => call.name) : [],
    end:
      last?.type === "abort"
        ? ["abort", last.reason, ...(last.error ? [last.error.code] : [])].join(":")
        : String(last?.type),
    errors: events.flatMap((e) => (e.type === "error" ? [e.error.code] : [])),
  };
}

async function run(
  provider: Provider,
  chunks: readonly Uint8Array[],
  options: StreamToolCallsOptions = {},
): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider, ...options }));
  assertEventInvariants(events, provider === "anthropic" || provider === "gemini");
  // A discarded call is never parsed: no tool-call or invalid-tool-call of its index.
  const last = events.at(-1);
  if (last?.type === "abort") {
    const completed = new Set(
      events.flatMap((e) => (e.type === "tool-call" || e.type === "invalid-tool-call" ? [e.index] : [])),
    );
    for (const call of last.discarded)
      assert(!completed.has(call.index), `discarded call ${call.index} was also completed`);
  }
  return events;
}

/** The common prefix of the fault rows: text, a completed call (where the framing has one), text, then an open call. */
function prefix(f: Framing): { sse: string; expected: Pick<Outcome, "text" | "calls"> } {
  const parts = [
    ...f.begin(),
    ...f.text("Checking "),
    ...(f.completeCall ? f.completeCall(0, "call_a", "lookup", '{"q":"tides"}') : []),
    ...f.text("two places. "),
    ...f.openCall(1, "call_b", "get_weather", "Par"),
  ];
  return {
    sse: parts.join(""),
    expected: { text: "Checking two places. ", calls: f.completeCall ? ['lookup {"q":"tides"}'] : [] },
  };
}

interface Row {
  bullet: string;
  name: string;
  provider: Provider;
  /** The body, as network chunks. */
  chunks: () => Uint8Array[];
  options?: StreamToolCallsOptions;
  expect: Outcome | { sameAs: () => Uint8Array[] };
}

const rows: Row[] = [];
for (const provider of providers) {
  const f = (): Framing => framing(provider);
  const faultAfterPrefix = (
    bullet: string,
    name: string,
    tail: (f: Framing) => string | Uint8Array,
    expect: (base: Pick<Outcome, "text" | "calls">) => Outcome,
    options?: StreamToolCallsOptions,
  ): void => {
    rows.push({
      bullet,
      name,
      provider,
      chunks: () => {
        const framed = f();
        const { sse } = prefix(framed);
        const rest = tail(framed);
        return typeof rest === "string" ? [bytes(sse + rest)] : [bytes(sse), rest];
      },
      ...(options ? { options } : {}),
      expect: expect(prefix(f()).expected),
    });
  };
  const discardedOpen = (base: Pick<Outcome, "text" | "calls">, end: string, errors: string[] = []): Outcome => ({
    ...base,
    discarded: ["get_weather"],
    end,
    errors,
  });

  faultAfterPrefix(
    "body ends mid-tool-call",
    "at an event boundary after more arguments",
    (g) => g.moreCity(1, "is").join(""),
    (b) => discardedOpen(b, "abort:input-ended"),
  );
  faultAfterPrefix(
    "body ends mid-line",
    "inside the data line of the next argument fragment",
    (g) => cutInsideData(g.moreCity(1, "is").join("")),
    (b) => discardedOpen(b, "abort:input-ended", ["truncated-event"]),
  );
  faultAfterPrefix(
    "body ends mid-event",
    "after a complete data line, before the blank line that ends the event",
    (g) => g.text("more").join("").replace(/\n\n$/, "\n"),
    // A complete payload whose blank line never came is used (gateways end that way): its text is delivered.
    (b) => discardedOpen({ ...b, text: `${b.text}more` }, "abort:input-ended"),
  );
  faultAfterPrefix(
    "body ends mid-UTF-8 character",
    "inside 杭州's first character of a text event",
    (g) => {
      const encoded = bytes(g.text("杭州").join(""));
      const at = encoded.indexOf(0xe6); // the first byte of 杭 (E6 9D AD)
      return encoded.slice(0, at + 2);
    },
    (b) => discardedOpen(b, "abort:input-ended", ["truncated-event"]),
  );
  faultAfterPrefix(
    "a stream that never sends a finish",
    "ends cleanly at an event boundary with no finish",
    (g) => g.text("Done.").join(""),
    (b) => discardedOpen({ ...b, text: `${b.text}Done.` }, "abort:input-ended"),
  );
  faultAfterPrefix(
    "a data line over the size limit",
    "an event larger than maxEventLength arrives while a call is open",
    (g) => g.text("y".repeat(3000)).join(""),
    (b) => discardedOpen(b, "abort:limit-exceeded:event-too-large", ["event-too-large"]),
    { maxEventLength: 1024 },
  );
  faultAfterPrefix(
    "a provider error event mid-call",
    "an error event while a call is open, then the connection closes",
    (g) => g.error().join(""),
    (b) => discardedOpen(b, "abort:provider-error", ["provider-error"]),
  );
  faultAfterPrefix(
    "an invalid JSON payload between valid ones",
    "a data payload that is not JSON, then the call and the response finish (the call only with its final text)",
    (g) =>
      [
        ...g.invalidPayload(),
        ...g.moreCity(1, "is"),
        ...g.closeCall(1, "call_b", "get_weather", "Paris"),
        ...g.finish(),
      ].join(""),
    (b) => ({
      ...b,
      // It may have held a fragment of the open call: only a provider's final text of the call (Gemini's whole
      // value, Responses' `.done`) completes it; else it ends invalid (test/accumulate/skipped-payloads.cases.ts).
      calls: provider === "openai" || provider === "anthropic" ? b.calls : [...b.calls, 'get_weather {"city":"Paris"}'],
      discarded: [],
      end: "finish",
      errors: ["malformed-payload"],
    }),
  );

  // Framing variants of a whole response: the same events as the LF form.
  const whole = (): string => {
    const g = f();
    const { sse } = prefix(g);
    return sse + [...g.moreCity(1, "is"), ...g.closeCall(1, "call_b", "get_weather", "Paris"), ...g.finish()].join("");
  };
  const lf = (): Uint8Array[] => [bytes(whole())];
  const variants: Array<[string, string, () => string]> = [
    ["CR, LF and CRLF line endings and a BOM", "CRLF line endings", () => whole().replace(/\n/g, "\r\n")],
    ["CR, LF and CRLF line endings and a BOM", "CR line endings", () => whole().replace(/\n/g, "\r")],
    ["CR, LF and CRLF line endings and a BOM", "a BOM, then CRLF", () => `\uFEFF${whole().replace(/\n/g, "\r\n")}`],
    [
      "SSE comments and retry: fields",
      "comment events, a comment line inside an event, and retry: lines",
      () =>
        `: keep-alive\n\nretry: 3000\n\n${whole()
          .replace(/data: /g, ": still here\ndata: ")
          .replace(/\n\n/g, "\nretry: 1000\n\n")}`,
    ],
  ];
  for (const [bullet, name, body] of variants) {
    rows.push({ bullet, name, provider, chunks: () => splitEvery(bytes(body()), 7), expect: { sameAs: lf } });
  }
  rows.push({
    bullet: "a repeated [DONE]",
    // Gemini has no terminal event: chunks after a finishReason (usage) still belong to the response.
    name:
      provider === "openai"
        ? "[DONE] twice, then a stray chunk"
        : provider === "gemini"
          ? "the finishReason chunk twice"
          : "the terminal event twice, then a stray event",
    provider,
    chunks: () => {
      const g = f();
      const body = whole();
      return [bytes(body + [...g.finish(), ...(provider === "gemini" ? [] : g.text("late"))].join(""))];
    },
    expect: { sameAs: lf },
  });
  if (provider !== "gemini") {
    // Gemini numbers calls itself; no index travels on the wire.
    rows.push({
      bullet: "an index reused after its call completed",
      name: "a second call on the index of a completed one is a new call",
      provider,
      chunks: () => [bytes(reusedIndex(provider))],
      expect: { text: "", calls: ["lookup {}", "get_weather {}"], discarded: [], end: "finish", errors: [] },
    });
  }
  rows.push({
    bullet: "1,000 parallel calls",
    name: "a thousand calls, all complete and in order",
    provider,
    chunks: () => [bytes(thousandCalls(provider))],
    expect: {
      text: "",
      calls: Array.from({ length: 1000 }, (_, i) =>
        provider === "openai-responses" ? `f${i} {"city":"${i}"}` : `f${i} {"i":${i}}`,
      ),
      discarded: [],
      end: "finish",
      errors: [],
    },
  });
}

/** Cuts an SSE text a few characters into the JSON of its first data line (no line end after). */
function cutInsideData(sse: string): string {
  return sse.slice(0, sse.indexOf("data: ") + 12);
}

/** A completed call, then a second call on the same wire index (OpenAI index, Anthropic block, Responses output_index). */
function reusedIndex(provider: SSEProvider): string {
  if (provider === "openai") {
    return [
      chat({ tool_calls: [{ index: 0, id: "call_a", function: { name: "lookup", arguments: "{}" } }] }, "tool_calls"),
      chat(
        { tool_calls: [{ index: 0, id: "call_b", function: { name: "get_weather", arguments: "{}" } }] },
        "tool_calls",
      ),
      "data: [DONE]\n\n",
    ].join("");
  }
  const g = framing(provider);
  if (provider === "anthropic") {
    const block = (id: string, name: string): string[] => [
      event("content_block_start", {
        type: "content_block_start",
        index: 0,
        content_block: { type: "tool_use", id, name, input: {} },
      }),
      event("content_block_delta", {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: "{}" },
      }),
      event("content_block_stop", { type: "content_block_stop", index: 0 }),
    ];
    return [...g.begin(), ...block("call_a", "lookup"), ...block("call_b", "get_weather"), ...g.finish()].join("");
  }
  const begin = g.begin();
  return [
    ...begin,
    ...g.completeCall!(0, "call_a", "lookup", "{}"),
    ...g.completeCall!(0, "call_b", "get_weather", "{}"),
    ...g.finish(),
  ].join("");
}

/** 1,000 calls in each provider's own way of sending many: interleaved by index where the wire allows it. */
function thousandCalls(provider: SSEProvider): string {
  const n = 1000;
  const ids = Array.from({ length: n }, (_, i) => i);
  if (provider === "openai") {
    return [
      ...ids.map((i) =>
        chat({ tool_calls: [{ index: i, id: `c${i}`, function: { name: `f${i}`, arguments: '{"i":' } }] }),
      ),
      ...ids.reverse().map((i) => chat({ tool_calls: [{ index: i, function: { arguments: `${i}}` } }] })),
      chat({}, "tool_calls"),
      "data: [DONE]\n\n",
    ].join("");
  }
  if (provider === "gemini")
    return geminiParts(
      ids.map((i) => ({ functionCall: { name: `f${i}`, args: { i } } })),
      { finishReason: "STOP" },
    );
  const g = framing(provider);
  // Anthropic blocks come one after another; Responses items interleave their argument deltas.
  if (provider === "anthropic")
    return [
      ...g.begin(),
      ...ids.flatMap((i) => g.completeCall!(i, `c${i}`, `f${i}`, `{"i":${i}}`)),
      ...g.finish(),
    ].join("");
  return [
    ...g.begin(),
    ...ids.flatMap((i) => g.openCall(i, `c${i}`, `f${i}`, "")),
    ...ids.flatMap((i) => g.moreCity(i, String(i))),
    ...ids.flatMap((i) => g.closeCall(i, `c${i}`, `f${i}`, String(i))),
    ...g.finish(),
  ].join("");
}

function splitEvery(data: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < data.length; at += size) parts.push(data.slice(at, at + size));
  return parts;
}

group("Fault matrix (issue 6): every fault, every provider framing", (test) => {
  for (const row of rows) {
    test(`${row.bullet} | ${row.provider}: ${row.name}`, async () => {
      const events = await run(row.provider, row.chunks(), row.options);
      if ("sameAs" in row.expect) {
        const baseline = await run(row.provider, row.expect.sameAs());
        assert(baseline.at(-1)?.type === "finish", "the baseline finishes");
        assertEquals(events, baseline, "same events as the plain LF stream");
      } else {
        assertEquals(outcome(events), row.expect);
      }
    });
  }
});
