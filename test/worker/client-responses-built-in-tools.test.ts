// The built-in tools a Responses client runs itself (`apply_patch`, `shell`, `local_shell`) through
// POST /v1/responses, openai-node as the client: an OpenAI Responses upstream is sent them as the
// client gave them and its `shell_call` / `apply_patch_call` items reach the client as they are;
// another provider (Chat Completions here) gets functions of those names, and its calls reach the
// client as the built-in items all the same. The next turn's calls and outputs go back to each
// provider in its own shape.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { applyPatchStream, shellStream } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { chatChunk } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, openAIChunks, testEnv } from "./support.ts";

const ENV = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const client = (upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: ENV, upstream }),
    maxRetries: 0,
  });
const TOOLS: OpenAI.Responses.Tool[] = [{ type: "shell", environment: { type: "local" } }, { type: "apply_patch" }];
const ask = "Find the TODOs.";
const sse = (body: string) => new FakeUpstream({ kind: "sse", chunks: [body] });

/** Runs one streamed turn; gives the final response and the types of the events the client read. */
async function turn(upstream: FakeUpstream, model: string, input: OpenAI.Responses.ResponseInput | string) {
  const stream = client(upstream).responses.stream({ model, tools: TOOLS, input });
  const types: string[] = [];
  for await (const event of stream) types.push(event.type);
  return { response: await stream.finalResponse(), types, body: upstream.requests[0]!.body };
}

/** What a client sends back: each output item as it came (openai-node adds `parsed_arguments` to calls). */
const echoed = (output: OpenAI.Responses.ResponseOutputItem[]) =>
  output.map((item) => {
    const { parsed_arguments: _parsed, ...rest } = item as typeof item & { parsed_arguments?: unknown };
    return rest as OpenAI.Responses.ResponseInputItem;
  });

const ACTION = { commands: ["ls -la", 'grep -n "TODO" src/*.py'], timeout_ms: 120000, max_output_length: 4096 };
const SHELL_OUTPUT = [{ stdout: "a.py:3: # TODO\n", stderr: "", outcome: { type: "exit" as const, exit_code: 0 } }];

describe("POST /v1/responses with the built-in tools the client runs", () => {
  it("OpenAI Responses upstream: sent the tools as given; its shell_call reaches the client as it came; the next turn goes back natively", async () => {
    const first = await turn(sse(shellStream), "openai-responses/gpt-5.1", ask);
    expect(first.body["tools"]).toEqual(TOOLS);
    const call = first.response.output.find((item) => item.type === "shell_call");
    expect(call).toMatchObject({
      type: "shell_call",
      call_id: "call_shell_1",
      status: "completed",
      action: ACTION,
      environment: { type: "local" },
    });
    // Added whole, without the command events openai-node's stream helper throws on.
    expect(first.types.filter((type) => type.startsWith("response.shell_call_command"))).toEqual([]);

    const upstream = sse(applyPatchStream);
    const second = await turn(upstream, "openai-responses/gpt-5.1", [
      { role: "user", content: ask },
      ...echoed(first.response.output),
      { type: "shell_call_output", call_id: "call_shell_1", output: SHELL_OUTPUT },
    ]);
    expect((second.body["input"] as unknown[]).slice(1)).toEqual([
      { role: "assistant", content: "Looking." },
      {
        type: "shell_call",
        call_id: "call_shell_1",
        action: ACTION,
        status: "completed",
        environment: { type: "local" },
      },
      { type: "shell_call_output", call_id: "call_shell_1", output: SHELL_OUTPUT, max_output_length: 4096 },
    ]);
    const patches = second.response.output.filter((item) => item.type === "apply_patch_call");
    expect(patches.map((item) => [item.call_id, item.operation.type, item.operation.path])).toEqual([
      ["call_patch_1", "update_file", "src/greet.py"],
      ["call_patch_2", "create_file", "NOTES.md"],
      ["call_patch_3", "delete_file", "old.txt"],
    ]);
    expect(second.response.output.filter((item) => item.type === "apply_patch_call")).toHaveLength(3);
  });

  it("a Chat Completions upstream: functions of the tools' names with their input's schema; its call reaches the client as an apply_patch_call", async () => {
    const operation = { type: "update_file", path: "src/greet.py", diff: "@@\n-a\n+b\n" };
    const chat = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: "call_p1",
              type: "function",
              function: { name: "apply_patch", arguments: JSON.stringify(operation) },
            },
          ],
        }),
        chatChunk({}, "tool_calls"),
      ]),
    });
    const first = await turn(chat, "openai/gpt-4.1", ask);
    const tools = first.body["tools"] as { function: { name: string; parameters: { required: string[] } } }[];
    expect(tools.map((tool) => [tool.function.name, tool.function.parameters.required])).toEqual([
      ["shell", ["commands"]],
      ["apply_patch", ["type", "path"]],
    ]);
    expect(first.response.output).toEqual([
      expect.objectContaining({ type: "apply_patch_call", call_id: "call_p1", status: "completed", operation }),
    ]);
    expect(first.types.filter((type) => type.startsWith("response.output_item"))).toEqual([
      "response.output_item.added",
      "response.output_item.done",
    ]);

    const text = new FakeUpstream({ kind: "sse", chunks: openAIChunks([chatChunk({ content: "Done." }, "stop")]) });
    const second = await turn(text, "openai/gpt-4.1", [
      { role: "user", content: ask },
      ...echoed(first.response.output),
      { type: "apply_patch_call_output", call_id: "call_p1", status: "failed", output: "hunk does not apply" },
    ]);
    expect(second.response.output_text).toBe("Done.");
    expect((second.body["messages"] as unknown[]).slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_p1", type: "function", function: { name: "apply_patch", arguments: JSON.stringify(operation) } },
        ],
      },
      { role: "tool", tool_call_id: "call_p1", content: "hunk does not apply" },
    ]);
  });

  it("an output naming no earlier call is a 400 at its call_id; a shell tool_choice names the shell", async () => {
    const upstream = new FakeUpstream({ kind: "hang" });
    await expect(
      client(upstream).responses.create({
        model: "openai/gpt-4.1",
        tools: TOOLS,
        input: [{ type: "shell_call_output", call_id: "nope", output: SHELL_OUTPUT }],
      }),
    ).rejects.toMatchObject({ status: 400, param: "input[0].call_id" });
    const chosen = sse(shellStream);
    const stream = client(chosen).responses.stream({
      model: "openai-responses/gpt-5.1",
      tools: TOOLS,
      tool_choice: { type: "shell" },
      input: ask,
    });
    await stream.finalResponse();
    expect(chosen.requests[0]!.body["tool_choice"]).toEqual({ type: "shell" });
  });
});
