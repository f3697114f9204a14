import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  assistantMessage,
  encodeEvents,
  OpenAIResponsesEncoder,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import * as responses from "../../../src/openai-responses.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { applyPatchStream, localShellStream, mcpStream, shellStream } from "./built-in-calls-recordings.ts";

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));

async function finishOf(body: string): Promise<{ events: ToolCallEvent[]; finish: FinishEvent }> {
  const events = await run([bytes(body)]);
  const finish = assertFinished(events);
  return { events, finish };
}

const DIFF = "@@ def greet():\n-    print('hi')\n+    print(\"héllo\")\n";

group("OpenAIResponsesDeltaStream built-in tools", (test) => {
  test("tool-call-stream/openai-responses' streamToolCalls reads them with the builtInCalls plug-in alone: without it, an unknown-provider error naming it after what came before, then an abort", async () => {
    for (const body of [applyPatchStream, shellStream, localShellStream, mcpStream]) {
      const expected = await run([bytes(body)]);
      const options = { builtInCalls: responses.ResponsesBuiltInCalls };
      assertEquals(await collect(responses.streamToolCalls(fromChunks([bytes(body)]), options)), expected);
      assertEquals(
        (await collect(responses.streamToolCallBatches(fromChunks([bytes(body)]), options))).flat(),
        expected,
      );
      const plain = await collect(responses.streamToolCalls(fromChunks(splitAt(bytes(body), [5, 300]))));
      const errors = plain.filter((event) => event.type === "error");
      assertEquals(
        errors.map((event) => event.type === "error" && event.error.code),
        ["unknown-provider"],
      );
      const error = errors[0]!.type === "error" ? errors[0]!.error : undefined;
      assert(error?.message.includes("builtInCalls: ResponsesBuiltInCalls") === true, String(error?.message));
      const end = plain.at(-1);
      assert(end?.type === "abort" && end.error?.code === "unknown-provider", JSON.stringify(end));
      // What came before the built-in item is delivered as with the plug-in (the shell stream's text).
      assertEquals(plain.slice(0, -2), expected.slice(0, plain.length - 2));
    }
  });

  test("apply_patch_call: a call named apply_patch whose arguments are the operation, its diff from the diff deltas", async () => {
    const { events, finish } = await finishOf(applyPatchStream);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.arguments]),
      [
        ["call_patch_1", "apply_patch", { type: "update_file", path: "src/greet.py", diff: DIFF }],
        ["call_patch_2", "apply_patch", { type: "create_file", path: "NOTES.md", diff: "+# Notes\n+- one\n" }],
        ["call_patch_3", "apply_patch", { type: "delete_file", path: "old.txt" }],
      ],
    );
    // The diff streams as it comes: the deltas of the first call are its arguments, in pieces.
    const deltas = events.flatMap((e) => (e.type === "tool-call-delta" && e.index === 0 ? [e.argumentsDelta] : []));
    assert(deltas.length >= 4, "one delta per diff fragment, and the close");
    assertEquals(deltas.join(""), finish.toolCalls[0]!.rawArguments);
    assertEquals(finish.toolCalls[0]!.providerMetadata, {
      responsesItem: { id: "apc_0a1", type: "apply_patch_call", status: "completed", created_by: "resp_patch" },
    });
  });

  test("shell_call: the commands of the command events, correlated by output_index and command_index, and the action's limits", async () => {
    const { finish } = await finishOf(shellStream);
    assertEquals(finish.text, "Looking.");
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((call) => [call.index, call.id, call.name, call.arguments]),
      [
        [
          1,
          "call_shell_1",
          "shell",
          { commands: ["ls -la", 'grep -n "TODO" src/*.py'], timeout_ms: 120000, max_output_length: 4096 },
        ],
      ],
    );
    assertEquals(finish.toolCalls[0]!.providerMetadata, {
      responsesItem: { id: "sh_0b1", type: "shell_call", status: "completed", environment: { type: "local" } },
    });
  });

  test("shell_call: what streamed of the commands is the prefix of the final action", async () => {
    const events = await run([bytes(shellStream)]);
    const streamed = events.flatMap((e) => (e.type === "tool-call-delta" ? [e.argumentsDelta] : [])).join("");
    assertEquals(streamed.slice(0, 40), '{"commands":["ls -la","grep -n \\"TODO\\" ');
  });

  test("local_shell_call: a call named local_shell with its exec action", async () => {
    const { finish } = await finishOf(localShellStream);
    assertEquals(
      finish.toolCalls.map((call) => [call.id, call.name, call.arguments]),
      [
        [
          "call_local_1",
          "local_shell",
          {
            command: ["bash", "-lc", "pwd"],
            type: "exec",
            env: {},
            timeout_ms: 10000,
            working_directory: "/repo",
          },
        ],
      ],
    );
  });

  test("mcp_call: a call OpenAI ran, named after the MCP tool, with its output and server on the call", async () => {
    const { finish } = await finishOf(mcpStream);
    assertEquals(finish.text, "You rolled 4.");
    assertEquals(finish.toolCalls.length, 1);
    const call = finish.toolCalls[0]!;
    assertEquals(
      [call.id, call.name, call.arguments, call.providerExecuted],
      ["mcp_0d1", "roll", { diceRollExpression: "2d4 + 1" }, true],
    );
    assertEquals(call.providerMetadata?.["responsesItem"], {
      id: "mcp_0d1",
      type: "mcp_call",
      server_label: "dmcp",
      output: "4",
      error: null,
      status: "completed",
      approval_request_id: null,
    });
  });

  for (const [name, body] of [
    ["apply_patch", applyPatchStream],
    ["shell", shellStream],
    ["mcp", mcpStream],
  ] as const) {
    test(`${name}: any split of the bytes gives the same events`, async () => {
      const data = bytes(body);
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 34, numRuns: 12 },
      );
    });
  }
});

group("OpenAIResponsesEncoder builtInTools", (test) => {
  for (const [name, body] of [
    ["apply_patch", applyPatchStream],
    ["shell", shellStream],
    ["local_shell", localShellStream],
  ] as const) {
    test(`${name}: the calls written as the tool's own items read back as the same calls`, async () => {
      const events = await run([bytes(body)]);
      const encoder = new OpenAIResponsesEncoder({ model: "m", builtInTools: new Set([name]) });
      const again = await run([bytes(encodeEvents(encoder, events, true))]);
      const calls = (list: ToolCallEvent[]) =>
        list.flatMap((e) =>
          e.type === "tool-call"
            ? [
                [
                  e.id,
                  e.name,
                  e.arguments,
                  (e.providerMetadata?.["responsesItem"] as { type: string } | undefined)?.type,
                ],
              ]
            : [],
        );
      assertEquals(calls(again), calls(events));
      assertEquals(again.at(-1)?.type, "finish");
    });
  }

  test("without builtInTools, the same calls are function calls", async () => {
    const events = await run([bytes(shellStream)]);
    const text = encodeEvents(new OpenAIResponsesEncoder({ model: "m" }), events, true);
    assert(text.includes('"type":"function_call"') && !text.includes('"type":"shell_call"'), "a function_call item");
  });
});

group("OpenAI Responses next turn of built-in tools", (test) => {
  test("apply_patch_call and its apply_patch_call_output, as the SDK's input items", async () => {
    const { finish } = await finishOf(applyPatchStream);
    const [update, , remove] = finish.toolCalls;
    const expected: ResponseInputItem[] = [
      {
        type: "apply_patch_call",
        call_id: "call_patch_1",
        operation: { type: "update_file", path: "src/greet.py", diff: DIFF },
        status: "completed",
      },
      {
        type: "apply_patch_call",
        call_id: "call_patch_2",
        operation: { type: "create_file", path: "NOTES.md", diff: "+# Notes\n+- one\n" },
        status: "completed",
      },
      {
        type: "apply_patch_call",
        call_id: "call_patch_3",
        operation: { type: "delete_file", path: "old.txt" },
        status: "completed",
      },
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
    const outputs: ResponseInputItem[] = [
      { type: "apply_patch_call_output", call_id: "call_patch_1", status: "completed", output: "Updated src/greet.py" },
      { type: "apply_patch_call_output", call_id: "call_patch_3", status: "failed", output: "old.txt: no such file" },
    ];
    assertEquals(
      toolResultMessages("openai-responses", [
        { call: update!, output: "Updated src/greet.py" },
        { call: remove!, output: "old.txt: no such file", isError: true },
      ]),
      outputs,
    );
  });

  test("shell_call and its shell_call_output: the text of a result as a command's stdout, a list of outputs as it is", async () => {
    const { finish } = await finishOf(shellStream);
    const call = finish.toolCalls[0]!;
    const expected: ResponseInputItem[] = [
      { type: "message", role: "assistant", content: "Looking." },
      {
        type: "shell_call",
        call_id: "call_shell_1",
        action: { commands: ["ls -la", 'grep -n "TODO" src/*.py'], timeout_ms: 120000, max_output_length: 4096 },
        status: "completed",
        environment: { type: "local" },
      },
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
    // Typed: inferred, the timeout's outcome would get an `exit_code?: undefined`, no JSON value.
    const perCommand: {
      stdout: string;
      stderr: string;
      outcome: { type: "exit"; exit_code: number } | { type: "timeout" };
    }[] = [
      { stdout: "a.py\n", stderr: "", outcome: { type: "exit", exit_code: 0 } },
      { stdout: "", stderr: "", outcome: { type: "timeout" } },
    ];
    const outputs: ResponseInputItem[] = [
      {
        type: "shell_call_output",
        call_id: "call_shell_1",
        output: [{ stdout: "a.py\n", stderr: "", outcome: { type: "exit", exit_code: 0 } }],
        max_output_length: 4096,
      },
      { type: "shell_call_output", call_id: "call_shell_1", output: perCommand, max_output_length: 4096 },
      {
        type: "shell_call_output",
        call_id: "call_shell_1",
        output: [{ stdout: "", stderr: "denied", outcome: { type: "exit", exit_code: 1 } }],
        max_output_length: 4096,
      },
    ];
    assertEquals(
      toolResultMessages("openai-responses", [
        { call, output: "a.py\n" },
        { call, output: perCommand },
        { call, output: "denied", isError: true },
      ]),
      outputs,
    );
  });

  test("local_shell_call and its local_shell_call_output", async () => {
    const { finish } = await finishOf(localShellStream);
    const call = finish.toolCalls[0]!;
    const expected: ResponseInputItem[] = [
      {
        type: "local_shell_call",
        id: "lsh_0c1",
        call_id: "call_local_1",
        action: {
          command: ["bash", "-lc", "pwd"],
          type: "exec",
          env: {},
          timeout_ms: 10000,
          working_directory: "/repo",
        },
        status: "completed",
      },
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
    const outputs: ResponseInputItem[] = [{ type: "local_shell_call_output", id: "call_local_1", output: "/repo\n" }];
    assertEquals(toolResultMessages("openai-responses", [{ call, output: "/repo\n" }]), outputs);
  });

  test("mcp_call goes back as the item OpenAI ran, with its output, before the text that came after it; it is never answered", async () => {
    const { finish } = await finishOf(mcpStream);
    const expected: ResponseInputItem[] = [
      {
        type: "mcp_call",
        id: "mcp_0d1",
        name: "roll",
        arguments: '{"diceRollExpression":"2d4 + 1"}',
        server_label: "dmcp",
        output: "4",
        status: "completed",
      },
      { type: "message", role: "assistant", content: "You rolled 4." },
    ];
    assertEquals(assistantMessage("openai-responses", finish), expected);
  });
});
