// Synthetic provider bodies for the benchmark, in each provider's real framing.

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

/** OpenAI Chat: calls given as [index, fragments] pairs in the order their fragments are sent. */
export function openAIChat(text: string[], calls: [number, string][]): string {
  // openai-node requires the role on the first delta, as OpenAI sends it.
  let sse = data({
    id: "chatcmpl-b",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
  });
  for (const piece of text)
    sse += data({
      id: "chatcmpl-b",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    });
  const started = new Set<number>();
  for (const [index, piece] of calls) {
    const call = started.has(index)
      ? { index, function: { arguments: piece } }
      : { index, id: `call_${index}`, type: "function", function: { name: "write_file", arguments: piece } };
    started.add(index);
    sse += data({
      id: "chatcmpl-b",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { tool_calls: [call] }, finish_reason: null }],
    });
  }
  sse += data({
    id: "chatcmpl-b",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta: {}, finish_reason: calls.length ? "tool_calls" : "stop" }],
  });
  return `${sse}data: [DONE]\n\n`;
}

/** Anthropic Messages: one tool_use block per call, blocks one after another. */
export function anthropic(calls: string[][]): string {
  let sse = event({
    type: "message_start",
    message: {
      id: "msg_b",
      type: "message",
      role: "assistant",
      content: [],
      model: "claude",
      usage: { input_tokens: 10, output_tokens: 1 },
    },
  } as never);
  calls.forEach((pieces, index) => {
    sse += event({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: `toolu_${index}`, name: "write_file", input: {} },
    } as never);
    for (const piece of pieces)
      sse += event({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      } as never);
    sse += event({ type: "content_block_stop", index } as never);
  });
  sse += event({
    type: "message_delta",
    delta: { stop_reason: "tool_use", stop_sequence: null },
    usage: { output_tokens: 100 },
  } as never);
  return sse + event({ type: "message_stop" });
}

/** OpenAI Responses: one function_call item per call, with sequence numbers. */
export function responses(calls: string[][]): string {
  let sequence = 0;
  const output: unknown[] = [];
  let sse = event({
    type: "response.created",
    sequence_number: sequence++,
    response: { id: "resp_b", object: "response", status: "in_progress", output: [] },
  } as never);
  calls.forEach((pieces, index) => {
    const item = {
      id: `fc_${index}`,
      type: "function_call",
      call_id: `call_${index}`,
      name: "write_file",
      arguments: "",
      status: "in_progress",
    };
    sse += event({
      type: "response.output_item.added",
      sequence_number: sequence++,
      output_index: index,
      item,
    } as never);
    for (const delta of pieces)
      sse += event({
        type: "response.function_call_arguments.delta",
        sequence_number: sequence++,
        output_index: index,
        item_id: item.id,
        delta,
      } as never);
    const args = pieces.join("");
    sse += event({
      type: "response.function_call_arguments.done",
      sequence_number: sequence++,
      output_index: index,
      item_id: item.id,
      arguments: args,
    } as never);
    sse += event({
      type: "response.output_item.done",
      sequence_number: sequence++,
      output_index: index,
      item: { ...item, arguments: args, status: "completed" },
    } as never);
    output.push({ ...item, arguments: args, status: "completed" });
  });
  const response = {
    id: "resp_b",
    object: "response",
    status: "completed",
    output,
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
  };
  return sse + event({ type: "response.completed", sequence_number: sequence++, response } as never);
}

/** Splits bytes into network chunks of `size` bytes (small sizes cut inside UTF-8 characters). */
export function networkChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}
