// In run mode the Worker's tool runner answers a call a length stop cut with a `tool-error` at once
// (nothing runs it), before the `finish` that says it was cut. That answer is no content of the
// model's: the cut call is still never ended, read by the real client. AG-UI (@ag-ui/client's
// HttpAgent, `forwardedProps.run: true`): no TOOL_CALL_END for it, and the run fails (RUN_ERROR
// `length`), as it does without run mode (test/worker/cut-call-clients.test.ts).
import { HttpAgent } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" });

const call = (index: number, args: string, id: string, name: string) =>
  chatChunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] });
/** OpenAI Chat: text, a whole `calculate` call (which the Worker runs), a `convert_units` call cut by `length`. */
const chatLength = [
  openAISSE([
    chatChunk({ content: "Working. " }),
    call(0, '{"expression":"2 + 2"}', "call_a", "calculate"),
    call(1, '{"value":26.2,"from":"m', "call_b", "convert_units"),
    chatChunk({}, "length"),
  ]),
];

interface Case {
  label: string;
  model: string;
  chunks: () => string[];
  /** The calls that end (TOOL_CALL_END), by name. */
  ended: string[];
}
const cases: Case[] = [
  {
    // Recorded: Anthropic stops at max_tokens inside a tool_use block.
    label: "Anthropic max_tokens (recorded)",
    model: "anthropic/claude-x",
    chunks: () => [recording("anthropic", "max-tokens-incomplete-tool-json").text],
    ended: [],
  },
  {
    label: "OpenAI Chat length after a whole call",
    model: "openai/gpt-x",
    chunks: () => chatLength,
    ended: ["calculate"],
  },
];

describe.skipIf(!recordingsAvailable).each(cases)("run mode, a call cut by $label", (c) => {
  it("/v1/ag-ui (@ag-ui/client's HttpAgent): the cut call never ends, the run fails", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: c.chunks() });
    const agent = new HttpAgent({
      url: "http://localhost:8787/v1/ag-ui",
      threadId: "t1",
      headers: { authorization: "Bearer t" },
      fetch: workerFetch({ env, upstream }),
    });
    agent.addMessage({ id: "m1", role: "user", content: "Add 2 and 2, and convert 26.2 miles." });
    const names = new Map<string, string>();
    const ended: string[] = [];
    const errors: string[] = [];
    await agent.runAgent(
      { runId: "r1", forwardedProps: { model: c.model, run: true, tools: ["calculate", "convert_units"] } },
      {
        onToolCallStartEvent: ({ event }) => void names.set(event.toolCallId, event.toolCallName),
        onToolCallEndEvent: ({ event }) => void ended.push(names.get(event.toolCallId) ?? "?"),
        onRunErrorEvent: ({ event }) => void errors.push(String(event.code)),
      },
    );
    expect(ended).toEqual(c.ended);
    expect(errors).toEqual(["length"]);
    expect(upstream.requests).toHaveLength(1);
  });
});
