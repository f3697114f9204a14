// The AI SDK reads what UIMessageEncoderStream writes: `DefaultChatTransport` (which validates
// every chunk against the version's schemas) and `readUIMessageStream` of ai 5.0.53 (the strict
// schemas, with `minVersion: 5`), ai 5 latest, 6 and 7, for every recorded provider stream: tool
// parts with the events' inputs in state input-available (output-available with tools run at the
// edge, over several steps of a tool loop). A fetch stub serves the bytes: no network.
import * as ai5strict from "ai-v5-0";
import * as ai5 from "ai-v5";
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import { assert, describe, expect, it } from "vitest";
import {
  runToolLoop,
  ToolRunnerStream,
  UI_MESSAGE_STREAM_HEADERS,
  UIMessageEncoderStream,
  type EncodableEvent,
  type ToolCallDeltaEvent,
  type UIMessageEncoderOptions,
} from "../../src/index.ts";
import { countingIds, failed, fixtureEvents, withViolation } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { expectedCalls } from "../support/protocol-readers.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
type Sdk = typeof ai6;
// [name, the package, the encoder's options for it, its major version]: ai 5 from 5.0.92 reads the
// default stream unless it carries approvals, which no ai 5 knows.
const versions: [string, Sdk, UIMessageEncoderOptions, number][] = [
  ["ai 5.0.53 (strict schemas)", ai5strict as unknown as Sdk, { minVersion: 5 }, 5],
  ["ai 5", ai5 as unknown as Sdk, {}, 5],
  ["ai 6", ai6, {}, 6],
  ["ai 7", ai7 as unknown as Sdk, {}, 7],
];

interface ToolPart {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
  providerExecuted?: boolean;
}

/** Sends one message through the SDK's own transport, answered by the encoder, and reads the assistant message. */
async function read(sdk: Sdk, events: readonly EncodableEvent[], options: UIMessageEncoderOptions) {
  const body = fromChunks(events).pipeThrough(
    new UIMessageEncoderStream({ messageId: "msg_1", generateId: countingIds(), ...options }),
  );
  const transport = new sdk.DefaultChatTransport({
    api: "http://127.0.0.1:9/api/chat",
    fetch: async () => new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS }),
  });
  const chunks = await transport.sendMessages({
    chatId: "chat_1",
    messages: [{ id: "user_1", role: "user", parts: [{ type: "text", text: "hi" }] }],
    abortSignal: undefined,
    trigger: "submit-message",
    messageId: undefined,
  });
  const errors: unknown[] = [];
  let message: ai6.UIMessage | undefined;
  for await (const snapshot of sdk.readUIMessageStream({ stream: chunks, onError: (error) => errors.push(error) }))
    message = snapshot;
  const tools = (message?.parts ?? []).filter((part) => part.type.startsWith("tool-")) as unknown as ToolPart[];
  const text = (message?.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  return {
    message,
    tools,
    text,
    errors: errors.map((error) => (error instanceof Error ? error.message : String(error))),
  };
}

for (const [name, sdk, options, major] of versions) {
  describe.skipIf(!recordingsAvailable)(`${name} reads UIMessageEncoderStream`, () => {
    for (const fixture of fixtures) {
      it(`${fixture.provider}/${fixture.name}: tool parts with the events' inputs`, async () => {
        const events = await fixtureEvents(fixture);
        const { message, tools, errors } = await read(sdk, events, options);
        expect(message?.id).toBe("msg_1");
        const expected = expectedCalls(events);
        // The calls the provider ran (Gemini Interactions' built-in tools) are parts of their own, marked so.
        const ran = events.flatMap((e) =>
          e.type === "tool-call" && e.providerExecuted ? [[`tool-${e.name}`, e.arguments]] : [],
        );
        expect(tools.filter((part) => part.providerExecuted).map((part) => [part.type, part.input])).toEqual(ran);
        expect(
          tools
            .filter((part) => !part.providerExecuted)
            .map((part) => [part.type, part.state, part.state === "input-available" ? part.input : part.state]),
        ).toEqual(
          expected.map((call) => [
            `tool-${call.name}`,
            call.invalid ? "output-error" : "input-available",
            call.invalid ? "output-error" : call.arguments,
          ]),
        );
        // A provider's approval request is an approval-requested dynamic tool (ai 6+); the default
        // stream's `tool-approval-request` is an ai 6 chunk, which ai 5 refuses (one error, the read stops).
        const approvals = events.flatMap((e) => (e.type === "approval-request" ? [[e.name, e.arguments]] : []));
        const dynamic = (message?.parts ?? []).filter((part) => part.type === "dynamic-tool") as unknown as {
          toolName: string;
          state: string;
          input: unknown;
        }[];
        if (major >= 6)
          expect(dynamic.map((part) => [part.toolName, part.input, part.state])).toEqual(
            approvals.map(([name, input]) => [name, input, "approval-requested"]),
          );
        if (failed(events) || (approvals.length > 0 && major === 5 && options.minVersion !== 5))
          expect(errors).toHaveLength(1);
        else expect(errors).toEqual([]);
      });
    }

    it("a tool-call-violation reaches the client as a transient data part, and the message keeps the call's parts unchanged", async () => {
      const fixture = fixtures.find(
        (f) => f.provider === "openai" && f.name === "chat-parallel-tool-calls-two-functions",
      )!;
      const events = await fixtureEvents(fixture);
      const violated = withViolation(events);
      const plain = await read(sdk, events, options);
      const shown = await read(sdk, violated, options);
      expect(shown.errors).toEqual([]);
      expect(shown.message?.parts).toEqual(plain.message?.parts);
      // The transport validated the part against the version's schema; the chunks carry it to `onData`.
      const body = fromChunks(violated).pipeThrough(
        new UIMessageEncoderStream({ messageId: "msg_1", generateId: countingIds(), ...options }),
      );
      const transport = new sdk.DefaultChatTransport({
        api: "http://127.0.0.1:9/api/chat",
        fetch: async () => new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS }),
      });
      const chunks = await collect(
        await transport.sendMessages({
          chatId: "chat_1",
          messages: [],
          abortSignal: undefined,
          trigger: "submit-message",
          messageId: undefined,
        }),
      );
      const data = chunks.filter((chunk) => chunk.type === "data-tool-call-violation") as unknown as {
        id: string;
        transient: boolean;
        data: { path: string; toolName: string };
      }[];
      expect(data.map((chunk) => [chunk.transient, chunk.data.path, chunk.data.toolName])).toEqual([
        [true, "/city", "weather"],
      ]);
    });

    it("tools run at the edge: each part ends output-available with the tool's result, over two steps of a tool loop", async () => {
      const first = fixtures.find(
        (f) => f.provider === "openai" && f.name === "chat-parallel-tool-calls-two-functions",
      )!;
      const second = fixtures.find((f) => f.provider === "openai" && f.name === "chat-text-finish-length-usage")!;
      const events = await collect(
        runToolLoop({
          provider: "openai",
          messages: [{ role: "user", content: "hi" }],
          tools: { search: { run: () => ({ hits: 3 }) }, weather: { run: () => "sunny" } },
          call: replayModel([first.text, second.text]).call,
        }),
      );
      const { tools, text, errors, message } = await read(sdk, events, options);
      expect(errors).toEqual([]);
      expect(tools.map((part) => [part.type, part.state, part.output])).toEqual([
        ["tool-search", "output-available", { hits: 3 }],
        ["tool-weather", "output-available", "sunny"],
      ]);
      expect(message!.parts.filter((part) => part.type === "step-start")).toHaveLength(2);
      expect(text.length).toBeGreaterThan(0);
    });

    it("a streaming tool (an async generator): its results so far are preliminary outputs, and the part ends with the final one", async () => {
      const fixture = fixtures.find(
        (f) => f.provider === "anthropic" && f.name === "tool-use-escaped-quotes-in-input",
      )!;
      const name = expectedCalls(await fixtureEvents(fixture))[0]!.name;
      const events = await collect(
        fromChunks(await fixtureEvents(fixture)).pipeThrough(
          new ToolRunnerStream({
            tools: {
              [name]: {
                async *run() {
                  yield { rows: [1] };
                  yield { rows: [1, 2] };
                  return { rows: [1, 2, 3] };
                },
              },
            },
          }),
        ),
      );
      expect(
        events.filter((e) => e.type === "tool-result").map((e) => e.type === "tool-result" && e.preliminary === true),
      ).toEqual([true, true, false]);
      const body = fromChunks(events).pipeThrough(
        new UIMessageEncoderStream({ messageId: "msg_1", generateId: countingIds(), ...options }),
      );
      const snapshots: { state: string; output?: unknown; preliminary?: boolean }[] = [];
      const errors: unknown[] = [];
      const transport = new sdk.DefaultChatTransport({
        api: "http://127.0.0.1:9/api/chat",
        fetch: async () => new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS }),
      });
      const stream = await transport.sendMessages({
        chatId: "chat_1",
        messages: [],
        abortSignal: undefined,
        trigger: "submit-message",
        messageId: undefined,
      });
      for await (const message of sdk.readUIMessageStream({ stream, onError: (error) => errors.push(error) })) {
        const part = message.parts.find((p) => p.type === `tool-${name}`) as
          | { state: string; output?: unknown; preliminary?: boolean }
          | undefined;
        if (part?.state === "output-available")
          snapshots.push({ state: part.state, output: part.output, preliminary: part.preliminary ?? false });
      }
      expect(errors).toEqual([]);
      const distinct = snapshots.filter((s, i) => i === 0 || JSON.stringify(s) !== JSON.stringify(snapshots[i - 1]));
      expect(distinct).toEqual([
        { state: "output-available", output: { rows: [1] }, preliminary: true },
        { state: "output-available", output: { rows: [1, 2] }, preliminary: true },
        { state: "output-available", output: { rows: [1, 2, 3] }, preliminary: false },
      ]);
    });

    it("a tool that needs approval, denied: an approval request and a denial (ai 5: the denial as an output error)", async () => {
      const fixture = fixtures.find(
        (f) => f.provider === "anthropic" && f.name === "tool-use-escaped-quotes-in-input",
      )!;
      const events = await collect(
        fromChunks(await fixtureEvents(fixture)).pipeThrough(
          new ToolRunnerStream({
            tools: {
              [expectedCalls(await fixtureEvents(fixture))[0]!.name]: { run: () => "ran", needsApproval: true },
            },
            approve: () => false,
          }),
        ),
      );
      const { tools, errors } = await read(sdk, events, major === 5 ? { minVersion: 5 } : options);
      expect(errors).toEqual([]);
      expect(tools.map((part) => part.state)).toEqual([major === 5 ? "output-error" : "output-denied"]);
    });

    it("a stream cut short: the half-received call ends output-error with its raw text, never input-available", async () => {
      const fixture = fixtures.find((f) => f.provider === "anthropic" && f.name === "parallel-tool-use")!;
      const events = await fixtureEvents(fixture);
      // Everything up to the middle of the second call, then the abort the pipeline gives.
      const second = events.filter((e) => e.type === "tool-call-start")[1]!;
      assert(second.type === "tool-call-start");
      const at = events.findIndex((e) => e.type === "tool-call-delta" && e.index === second.index) + 1;
      const rawArguments = (events[at - 1] as ToolCallDeltaEvent).argumentsDelta;
      const cut: EncodableEvent[] = [
        ...events.slice(0, at),
        {
          type: "abort",
          reason: "input-ended",
          discarded: [{ index: second.index, id: second.id, name: second.name, rawArguments }],
        },
      ];
      const { tools, errors } = await read(sdk, cut, options);
      expect(tools.map((part) => part.state)).toEqual(["input-available", "output-error"]);
      expect(errors).toEqual(["The response ended before it finished."]);
    });
  });
}

it.skipIf(!recordingsAvailable)(
  "ai 5.0.53's strict schemas refuse the default stream's finishReason: minVersion 5 is what they need",
  async () => {
    const fixture = fixtures.find((f) => f.provider === "openai" && f.name === "chat-text-finish-length-usage")!;
    const { errors } = await read(ai5strict as unknown as Sdk, await fixtureEvents(fixture), {});
    expect(errors.join("")).toContain("finishReason");
  },
);
