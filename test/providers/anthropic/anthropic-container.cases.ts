// Anthropic's code-execution `container` (issue 34): the message names the container it ran in, and
// the next request sends its id as `container` to run in the same one (a programmatic tool calling
// continuation needs it: its code waits there for the call's result).
//
// Provenance: no real capture of a response with a container was available offline, so these
// streams are BUILT BY HAND from `@anthropic-ai/sdk`'s types: `Message.container: Container | null`
// (in `message_start.message`), `RawMessageDeltaEvent.Delta.container: Container | null` ("non-null
// if a container tool (e.g. code execution) was used"), `Container {id, expires_at, skills}`, and
// `MessageCreateParams.container?: string | ContainerParams` ("Container identifier for reuse
// across requests"). Which one wins follows the SDK's MessageStream accumulator: the delta's
// container replaces the start's only when it is not null. The ids, times and texts are made up.
import type { Message, MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import fc from "fast-check";
import {
  readAnthropicMessage,
  providerKit,
  restoreAccumulator,
  runToolLoop,
  snapshotAccumulator,
  streamToolCalls,
  ToolCallAccumulator,
  type ExecutionContainer,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { readMessagesEvents } from "../../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../../support/encoders.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { anthropicSse, CODE_CALLER } from "./turn-blocks-recordings.ts";

const CONTAINER = { id: "container_011CVzJpXqCmE5rnuC", expires_at: "2026-12-02T15:12:09.000000Z", skills: null };
const EXPECTED: ExecutionContainer = { id: CONTAINER.id, expiresAt: CONTAINER.expires_at };

const start = (id: string, container: unknown, content: unknown[] = [], stop_reason: string | null = null) => ({
  type: "message_start",
  message: {
    id,
    type: "message",
    role: "assistant",
    model: "claude-fable-5",
    content,
    stop_reason,
    stop_sequence: null,
    container,
    usage: { input_tokens: 310, output_tokens: 1 },
  },
});
const messageDelta = (stop_reason: string, container: unknown) => ({
  type: "message_delta",
  delta: { stop_reason, stop_sequence: null, container, stop_details: null },
  usage: { output_tokens: 88 },
});

/** The first turn: code execution runs and its code calls a client tool; the container comes in the message_delta. */
export const containerFirst: string = anthropicSse(
  start("msg_ctr_1", null),
  {
    type: "content_block_start",
    index: 0,
    content_block: { type: "server_tool_use", id: "srvtoolu_code_1", name: "code_execution", input: {} },
  },
  {
    type: "content_block_delta",
    index: 0,
    delta: { type: "input_json_delta", partial_json: '{"code": "r = await rollDie({\\"player\\": \\"p1\\"})"}' },
  },
  { type: "content_block_stop", index: 0 },
  {
    type: "content_block_start",
    index: 1,
    content_block: { type: "tool_use", id: "toolu_roll_1", name: "rollDie", input: {}, caller: CODE_CALLER },
  },
  { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"player": "p1"}' } },
  { type: "content_block_stop", index: 1 },
  messageDelta("tool_use", CONTAINER),
  { type: "message_stop" },
);

/** A continuation: the container and the next call already in message_start, no message_delta. */
export const containerContinuation: string = anthropicSse(
  start(
    "msg_ctr_2",
    CONTAINER,
    [{ type: "tool_use", id: "toolu_roll_2", name: "rollDie", input: { player: "p2" }, caller: CODE_CALLER }],
    "tool_use",
  ),
  { type: "message_stop" },
);

/** The container in message_start, and a message_delta whose container is null: the start's stays. */
const containerKept = anthropicSse(
  start("msg_ctr_3", CONTAINER),
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "Both rolled a 6." } },
  { type: "content_block_stop", index: 0 },
  messageDelta("end_turn", null),
  { type: "message_stop" },
);

/** A turn that used no container tool: `container: null` in both places. */
const noContainer = anthropicSse(
  start("msg_plain", null),
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "Hello." } },
  { type: "content_block_stop", index: 0 },
  messageDelta("end_turn", null),
  { type: "message_stop" },
);

const run = (chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: "anthropic" }));
const finishOf = async (body: string): Promise<FinishEvent> => assertFinished(await run([bytes(body)]));

group("Anthropic code-execution container: kept on the finish, sent with the next request", (test) => {
  test("the container of message_delta is on the finish, with the call its code made", async () => {
    const finish = await finishOf(containerFirst);
    assertEquals(finish.container, EXPECTED);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((call) => call.id),
      ["srvtoolu_code_1", "toolu_roll_1"],
    );
  });

  test("a continuation's container in message_start is on the finish", async () => {
    const finish = await finishOf(containerContinuation);
    assertEquals(finish.container, EXPECTED);
    assertEquals([finish.reason, finish.toolCalls[0]?.id], ["tool-calls", "toolu_roll_2"]);
  });

  test("a null container in message_delta keeps the start's (as the SDK's MessageStream does)", async () => {
    assertEquals((await finishOf(containerKept)).container, EXPECTED);
  });

  test("a turn without a container tool has no container field", async () => {
    const finish = await finishOf(noContainer);
    assert(!("container" in finish), "no container field");
  });

  test("a snapshot taken before the finish keeps the container", async () => {
    const events: ToolCallEvent[] = [];
    const first = new ToolCallAccumulator((event) => events.push(event));
    first.push({ type: "finish", rawReason: "pause_turn", reason: "pause", container: EXPECTED });
    const restored = new ToolCallAccumulator((event) => events.push(event));
    restoreAccumulator(restored, JSON.parse(JSON.stringify(snapshotAccumulator(first))));
    restored.end();
    const finish = assertFinished(events);
    assertEquals(finish.container, EXPECTED);
  });

  test("the request kit sends the container to Anthropic, and no other provider gets it", () => {
    const request = {
      model: "claude-fable-5",
      messages: [{ role: "user" as const, content: "Roll for both players." }],
      tools: [],
      container: EXPECTED.id,
    };
    const body = providerKit("anthropic").requestBody(request);
    const typed: Pick<MessageCreateParamsStreaming, "container"> = { container: EXPECTED.id };
    assertEquals(body["container"], typed.container);
    for (const provider of ["openai", "openai-responses", "gemini", "bedrock", "cohere", "ollama"] as const)
      assert(!("container" in providerKit(provider).requestBody(request)), `${provider} gets no container`);
  });

  test("runToolLoop gives the next step's call the container the previous response named", async () => {
    const done = anthropicSse(
      start("msg_ctr_done", null),
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "p1 rolled 6, p2 rolled 3." } },
      { type: "content_block_stop", index: 0 },
      messageDelta("end_turn", null),
      { type: "message_stop" },
    );
    const bodies = [containerFirst, containerContinuation, done];
    const seen: (string | undefined)[] = [];
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: [{ role: "user", content: "Roll for both players." }],
        tools: { rollDie: { run: ({ player }: { player: string }) => (player === "p1" ? 6 : 3) } },
        call: ({ step, container }) => {
          seen.push(container);
          return Promise.resolve(new Response(bodies[step - 1]));
        },
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finishes");
    assertEquals([last.reason, last.steps], ["no-tool-calls", 3]);
    // Step 1 names none; step 2 the first answer's; step 3 still that one (the last answer that named one).
    assertEquals(seen, [undefined, EXPECTED.id, EXPECTED.id]);
  });

  test("the Messages encoder sends the container in message_delta, and the message has it, as the SDK types them", async () => {
    const events = await run([bytes(containerFirst)]);
    const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
    assertEquals(reading.container, { id: CONTAINER.id, expires_at: CONTAINER.expires_at });
    const result = await readAnthropicMessage(fromChunks(events), AGENT_OPTIONS.anthropic());
    assert(result.type === "message", "a message");
    const container: Pick<Message, "container">["container"] = { ...CONTAINER };
    const { skills: _skills, ...sent } = container;
    assertEquals(result.message.container, sent);
  });

  for (const [name, body] of Object.entries({ containerFirst, containerContinuation, containerKept })) {
    test(`${name}: any split of the bytes gives the same events`, async () => {
      const data = bytes(body);
      const whole = await run([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
          assertEquals(await run(splitAt(data, cuts)), whole);
        }),
        { seed: 3434, numRuns: 15 },
      );
    });
  }
});
