// A `local_shell_call` OpenAI made, relayed on /v1/responses and answered as Codex answers it. The
// item reaches the client under the encoder's own `lsh_` id (as a `function_call` is under its own
// `fc_` id), but with OpenAI's `call_id`, which is what pairs a call with its output: Codex keys its
// answer by `call_id` (a `function_call_output` for a local shell's call, or the
// `local_shell_call_output` whose `id` names the call's `call_id`, openai-node's type). Sent back,
// the call keeps that `call_id` and the id the client echoed, and the output pairs with it, to OpenAI
// as the `local_shell_call_output` of that call and to another provider as its call's result.
import { describe, expect, it } from "vitest";
import { localShellStream } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { scripted } from "./open-responses-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const env = testEnv({
  CLIENT_TOKEN: "t",
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  ANTHROPIC_API_KEY: "k",
});
const post = (body: Record<string, unknown>) =>
  new Request("http://localhost:8787/v1/responses", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({ store: false, tools: [{ type: "local_shell" }], ...body }),
  });

/** The `local_shell_call` item the client got, as `response.output_item.done` carried it. */
async function relayedCall(): Promise<Record<string, unknown>> {
  const upstream = new FakeUpstream({ kind: "sse", chunks: [localShellStream] });
  const response = await worker(upstream).call(
    post({ model: "openai-responses/gpt-5", stream: true, input: "pwd?" }),
    env,
  );
  const done = (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line.includes('"response.output_item.done"'))
    .map((line) => JSON.parse(line.slice(6)) as { item: Record<string, unknown> });
  expect(done).toHaveLength(1);
  return done[0]!.item;
}

/** The next turn, with the relayed call and `output` as the client sends them back: what `model`'s provider was sent. */
async function sentBack(model: string, provider: "openai-responses" | "anthropic", output: Record<string, unknown>) {
  const item = await relayedCall();
  const next = scripted(provider, { text: "The directory is /repo." });
  const response = await worker(next).call(
    post({ model, input: [{ role: "user", content: "pwd?" }, item, output] }),
    env,
  );
  expect(response.status).toBe(200);
  return { item, body: next.requests[0]!.body };
}

describe("a local shell's call through /v1/responses and back, as Codex answers it", () => {
  it("the client gets OpenAI's call_id, under an lsh_ item id", async () => {
    const item = await relayedCall();
    expect(item).toMatchObject({ type: "local_shell_call", call_id: "call_local_1", status: "completed" });
    expect(item["id"]).toMatch(/^lsh_/);
  });

  for (const [label, output] of [
    ["a function_call_output (Codex)", { type: "function_call_output", call_id: "call_local_1", output: "/repo" }],
    ["a local_shell_call_output", { type: "local_shell_call_output", id: "call_local_1", output: "/repo" }],
  ] as const) {
    it(`${label}: OpenAI gets the call and its local_shell_call_output, paired by call_id`, async () => {
      const { item, body } = await sentBack("openai-responses/gpt-5", "openai-responses", output);
      expect((body as { input: unknown[] }).input.slice(1)).toEqual([
        {
          type: "local_shell_call",
          id: item["id"],
          call_id: "call_local_1",
          action: item["action"],
          status: "completed",
        },
        { type: "local_shell_call_output", id: "call_local_1", output: "/repo" },
      ]);
    });

    it(`${label}: another provider gets the call and its result under the same id`, async () => {
      const sent = JSON.stringify((await sentBack("anthropic/claude-x", "anthropic", output)).body);
      expect(sent).toContain('"type":"tool_use","id":"call_local_1","name":"local_shell"');
      expect(sent).toContain('"type":"tool_result","tool_use_id":"call_local_1","content":"/repo"');
    });
  }
});
