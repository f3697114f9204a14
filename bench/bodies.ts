// Synthetic provider bodies for the benchmark, in each provider's real framing and wire layout
// (key order, extra fields, padding) as recorded in ../shared/fixtures/<provider>/*.sse.

/** A benchmark input: the SSE text and the provider it is framed for. */
export interface Body {
  framing: "openai" | "anthropic" | "openai-responses";
  sse: string;
}

/** Arguments of about `size` bytes: non-ASCII text, escapes and nesting, like real tool input. */
export function argumentsOf(size: number): string {
  const line = 'Hangzhou 杭州市 "quoted" \\ tab\t newline\n café 😀 ';
  const lines: string[] = [];
  let bytes = 0;
  while (bytes < size) {
    lines.push(`${line}${lines.length}`);
    bytes += 64;
  }
  return JSON.stringify({ path: "notes/today.md", lines, options: { append: true, mode: 420 } });
}

/** Splits text into fragments of `size` characters (arguments arrive a few characters at a time). */
export function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const event = (payload: { type: string }): string => `event: ${payload.type}\n${data(payload)}`;

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** OpenAI's `obfuscation` padding of the `n`th event: 1 to 15 letters and digits, as recorded (its length varies per event). */
function obfuscation(n: number): string {
  let text = "";
  for (let i = 0, length = 1 + ((n * 7) % 15); i < length; i++)
    text += ALPHANUMERIC[(n * 37 + i * 17 + ((n * n) % 61)) % 62];
  return text;
}

/**
 * OpenAI Chat: calls given as [index, fragments] pairs in the order their fragments are sent.
 * OpenAI's layout now (../shared/fixtures/openai/chat-text-then-tool-call-usage.sse): `id`,
 * `object`, `created`, `model`, `service_tier`, `system_fingerprint`, `choices` (with `logprobs`),
 * then `obfuscation`; a call starts with its id, name and empty arguments, and a usage chunk
 * (`choices: []`) ends the stream (`stream_options.include_usage`, which the AI SDK asks for).
 */
export function openAIChat(text: string[], calls: [number, string][]): string {
  let n = 0;
  const chunk = (choices: unknown[], usage?: unknown): string =>
    data({
      id: "chatcmpl-E6yvi7cuDcHZEHTMxcLDyf3CMKIO2",
      object: "chat.completion.chunk",
      created: 1785332890,
      model: "gpt-4o-2024-08-06",
      service_tier: "default",
      system_fingerprint: "fp_627de6ad19",
      choices,
      ...(usage === undefined ? {} : { usage }),
      obfuscation: obfuscation(n++),
    });
  const choice = (delta: unknown, finish: string | null = null) => [
    { index: 0, delta, logprobs: null, finish_reason: finish },
  ];
  // openai-node requires the role on the first delta, as OpenAI sends it: with the text's first
  // (empty) delta, or with the first call's start when the answer is calls only.
  const role = { role: "assistant", content: text.length ? "" : null };
  let sse = text.length ? chunk(choice({ ...role, refusal: null })) : "";
  for (const piece of text) sse += chunk(choice({ content: piece }));
  const started = new Set<number>();
  for (const [index, piece] of calls) {
    if (!started.has(index)) {
      const start = { index, id: `call_${index}`, type: "function", function: { name: "write_file", arguments: "" } };
      sse += chunk(
        choice(started.size || text.length ? { tool_calls: [start] } : { ...role, tool_calls: [start], refusal: null }),
      );
      started.add(index);
    }
    sse += chunk(choice({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  sse += chunk(choice({}, calls.length ? "tool_calls" : "stop"));
  sse += chunk([], {
    prompt_tokens: 58,
    completion_tokens: 12,
    total_tokens: 70,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  });
  return `${sse}data: [DONE]\n\n`;
}

/**
 * Anthropic Messages: one tool_use block per call, blocks one after another, in Anthropic's layout
 * (../shared/fixtures/anthropic/three-tool-use-blocks.sse): 0 to 15 spaces before each event's
 * closing brace, a `ping` after the first block's start, and each block's first delta empty.
 */
export function anthropic(calls: string[][]): string {
  let n = 0;
  const padded = (payload: { type: string }): string => {
    const json = JSON.stringify(payload);
    return `event: ${payload.type}\ndata: ${json.slice(0, -1)}${" ".repeat((n++ * 5) % 16)}}\n\n`;
  };
  let sse = padded({
    type: "message_start",
    message: {
      model: "claude-sonnet-4-5-20250929",
      id: "msg_011Cd5Uz3EsW7t2zRF3zZGJL",
      type: "message",
      role: "assistant",
      content: [],
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 798,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        output_tokens: 8,
        service_tier: "standard",
        inference_geo: "not_available",
      },
    },
  } as never);
  calls.forEach((pieces, index) => {
    sse += padded({
      type: "content_block_start",
      index,
      content_block: {
        type: "tool_use",
        id: `toolu_01LtEf4h1QW7KCKLsYMuhT${index}`,
        name: "write_file",
        input: {},
        caller: { type: "direct" },
      },
    } as never);
    if (index === 0) sse += 'event: ping\ndata: {"type": "ping"}\n\n';
    for (const piece of ["", ...pieces])
      sse += padded({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      } as never);
    sse += padded({ type: "content_block_stop", index } as never);
  });
  sse += padded({
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null, stop_details: null },
    usage: { input_tokens: 798, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 110 },
  } as never);
  return sse + padded({ type: "message_stop" });
}

/** The `response` object of OpenAI Responses' first and last events, as recorded (../shared/fixtures/openai-responses/text-then-function-call.sse). */
function response(status: string, output: unknown[], usage: unknown): Record<string, unknown> {
  return {
    id: "resp_0fabc13af1ee0049006a691dfdab8881a1a75f2db7ff78cb83",
    object: "response",
    created_at: 1785273853,
    status,
    background: false,
    completed_at: usage === null ? null : 1785273855,
    error: null,
    frequency_penalty: 0.0,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: "gpt-5.5-2026-04-23",
    moderation: null,
    output,
    parallel_tool_calls: true,
    presence_penalty: 0.0,
    previous_response_id: null,
    prompt_cache_key: null,
    prompt_cache_retention: "24h",
    reasoning: { context: "current_turn", effort: "medium", mode: "standard", summary: null },
    safety_identifier: null,
    service_tier: "auto",
    store: true,
    temperature: 1.0,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: [{ type: "function", name: "write_file", description: null, parameters: { type: "object" }, strict: false }],
    top_logprobs: 0,
    top_p: 0.98,
    truncation: "disabled",
    usage,
    user: null,
    metadata: {},
  };
}

/**
 * OpenAI Responses: one function_call item per call, in OpenAI's layout now
 * (../shared/fixtures/openai-responses/text-then-function-call.sse): each event's `type`, then its
 * other keys in alphabetical order (a delta's `delta`, `item_id`, `obfuscation`, `output_index`,
 * `sequence_number`), a `response.in_progress` after `response.created`.
 */
export function responses(calls: string[][]): string {
  let sequence = 0;
  const output: unknown[] = [];
  let sse = event({
    type: "response.created",
    response: response("in_progress", [], null),
    sequence_number: sequence++,
  } as never);
  sse += event({
    type: "response.in_progress",
    response: response("in_progress", [], null),
    sequence_number: sequence++,
  } as never);
  calls.forEach((pieces, index) => {
    const id = `fc_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c753b${index}`;
    const item = (status: string, args: string) => ({
      id,
      type: "function_call",
      status,
      arguments: args,
      call_id: `call_LabG58Uhrq9kZvR52BYKjT${index}`,
      name: "write_file",
    });
    sse += event({
      type: "response.output_item.added",
      item: item("in_progress", ""),
      output_index: index,
      sequence_number: sequence++,
    } as never);
    for (const delta of pieces)
      sse += event({
        type: "response.function_call_arguments.delta",
        delta,
        item_id: id,
        obfuscation: obfuscation(sequence),
        output_index: index,
        sequence_number: sequence++,
      } as never);
    const args = pieces.join("");
    sse += event({
      type: "response.function_call_arguments.done",
      arguments: args,
      item_id: id,
      output_index: index,
      sequence_number: sequence++,
    } as never);
    sse += event({
      type: "response.output_item.done",
      item: item("completed", args),
      output_index: index,
      sequence_number: sequence++,
    } as never);
    output.push(item("completed", args));
  });
  const usage = {
    input_tokens: 63,
    input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
    output_tokens: 69,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 132,
  };
  return (
    sse +
    event({
      type: "response.completed",
      response: response("completed", output, usage),
      sequence_number: sequence++,
    } as never)
  );
}

/** Splits bytes into network chunks of `size` bytes (small sizes cut inside UTF-8 characters). */
export function networkChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
