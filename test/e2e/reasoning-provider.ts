// A fake Anthropic, OpenAI Responses and DeepSeek (Chat Completions) on 127.0.0.1 whose models
// reason: turn 1 is signed thinking (Anthropic), a reasoning item with encrypted content (OpenAI)
// or `reasoning_content` deltas (DeepSeek) and then a call of the agent's shell tool; turn 2 (the
// request that carries the tool's output) is text. Every body is kept, with the status it got, so
// a test can read what turn 2 carried back.
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import { deepseekAnswer } from "./deepseek-provider.ts";

/** The thinking both models write. */
export const THOUGHT = "I should run it.";
/** The Anthropic model's signature of its thinking. */
export const SIGNATURE = "SIG-e2e-anthropic";
/** The OpenAI model's reasoning item: its id and encrypted content. */
export const ITEM = { id: "rs_e2e_original", encrypted: "gAAAA-e2e-encrypted" };

/** The running fake: the base URLs for the Worker's variables, and every body it was sent. */
export interface ReasoningProvider {
  vars: Record<string, string>;
  bodies: { path: string; body: Record<string, unknown>; status: number }[];
  stop(): Promise<void>;
}

const sse = (events: Record<string, unknown>[]): string =>
  events.map((event) => `event: ${String(event["type"])}\ndata: ${JSON.stringify(event)}\n\n`).join("");

/** The agent's shell tool, by the tools the request offers: Claude Code's Bash or Codex's exec_command. */
export function shellCall(body: string, marker: string): { name: string; input: Record<string, string> } | undefined {
  if (body.includes(marker)) return undefined;
  const asked = body.match(/echo OUT-\$\(\(6\*7\)\)-[a-z0-9-]+/)?.[0];
  if (asked === undefined) return undefined;
  if (body.includes('"name":"Bash"')) return { name: "Bash", input: { command: asked, description: "Print the tag" } };
  return body.includes('"name":"exec_command"') ? { name: "exec_command", input: { cmd: asked } } : undefined;
}

function anthropicAnswer(call: ReturnType<typeof shellCall>): string {
  const blocks: Record<string, unknown>[] = call
    ? [
        { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: THOUGHT } },
        { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: SIGNATURE } },
        { type: "content_block_stop", index: 0 },
        {
          type: "content_block_start",
          index: 1,
          content_block: { type: "tool_use", id: "toolu_e2e", name: call.name, input: {} },
        },
        {
          type: "content_block_delta",
          index: 1,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) },
        },
        { type: "content_block_stop", index: 1 },
      ]
    : [
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "The command ran." } },
        { type: "content_block_stop", index: 0 },
      ];
  return sse([
    {
      type: "message_start",
      message: {
        id: "msg_e2e",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        usage: { input_tokens: 9, output_tokens: 1 },
      },
    },
    ...blocks,
    {
      type: "message_delta",
      delta: { stop_reason: call ? "tool_use" : "end_turn", stop_sequence: null },
      usage: { output_tokens: 9 },
    },
    { type: "message_stop" },
  ]);
}

function responsesAnswer(call: ReturnType<typeof shellCall>): string {
  const output: Record<string, unknown>[] = [];
  const events: Record<string, unknown>[] = [
    { type: "response.created", response: { id: "resp_e2e", status: "in_progress", output: [] } },
  ];
  if (call) {
    const reasoning = {
      type: "reasoning",
      id: ITEM.id,
      summary: [{ type: "summary_text", text: THOUGHT }],
      encrypted_content: ITEM.encrypted,
    };
    const args = JSON.stringify(call.input);
    const fc = {
      type: "function_call",
      id: "fc_e2e",
      call_id: "call_e2e",
      name: call.name,
      arguments: args,
      status: "completed",
    };
    events.push(
      { type: "response.output_item.added", output_index: 0, item: { type: "reasoning", id: ITEM.id, summary: [] } },
      {
        type: "response.reasoning_summary_part.added",
        item_id: ITEM.id,
        output_index: 0,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      },
      {
        type: "response.reasoning_summary_text.delta",
        item_id: ITEM.id,
        output_index: 0,
        summary_index: 0,
        delta: THOUGHT,
      },
      { type: "response.output_item.done", output_index: 0, item: reasoning },
      { type: "response.output_item.added", output_index: 1, item: { ...fc, arguments: "", status: "in_progress" } },
      { type: "response.function_call_arguments.delta", item_id: "fc_e2e", output_index: 1, delta: args },
      { type: "response.function_call_arguments.done", item_id: "fc_e2e", output_index: 1, arguments: args },
      { type: "response.output_item.done", output_index: 1, item: fc },
    );
    output.push(reasoning, fc);
  } else {
    const text = { type: "output_text", text: "The command ran.", annotations: [] };
    const message = { type: "message", id: "msg_e2e", role: "assistant", status: "completed", content: [text] };
    const at = { item_id: "msg_e2e", output_index: 0, content_index: 0 };
    events.push(
      { type: "response.output_item.added", output_index: 0, item: { ...message, content: [], status: "in_progress" } },
      { type: "response.content_part.added", ...at, part: { ...text, text: "" } },
      { type: "response.output_text.delta", ...at, delta: text.text },
      { type: "response.output_text.done", ...at, text: text.text },
      { type: "response.content_part.done", ...at, part: text },
      { type: "response.output_item.done", output_index: 0, item: message },
    );
    output.push(message);
  }
  events.push({
    type: "response.completed",
    response: {
      id: "resp_e2e",
      status: "completed",
      output,
      usage: { input_tokens: 9, output_tokens: 9, total_tokens: 18 },
    },
  });
  return sse(events.map((event, i) => ({ ...event, sequence_number: i })));
}

/** Starts the fake; `marker` is the text whose presence in a request means the tool already ran. */
export async function startReasoningProvider(marker: string): Promise<ReasoningProvider> {
  const bodies: ReasoningProvider["bodies"] = [];
  /** DeepSeek's reasoning of each call it made, by the call's id: what its next requests must carry back. */
  const reasoned = new Map<string, string>();
  const server: Server = createServer((request, response) => {
    let raw = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (raw += chunk));
    request.on("end", () => {
      const path = request.url ?? "";
      const body = JSON.parse(raw || "{}") as Record<string, unknown>;
      const call = shellCall(raw, marker);
      const answer = path.endsWith("/chat/completions")
        ? deepseekAnswer(body, call, reasoned)
        : {
            status: 200,
            type: "text/event-stream",
            body: path.endsWith("/responses") ? responsesAnswer(call) : anthropicAnswer(call),
          };
      bodies.push({ path, body, status: answer.status });
      response.writeHead(answer.status, { "content-type": answer.type });
      response.end(answer.body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const base = `http://127.0.0.1:${address.port}`;
  return {
    vars: {
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: `${base}/v1`,
      OPENAI_API_KEY: "k",
      OPENAI_BASE_URL: `${base}/v1`,
    },
    bodies,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
