// Properties every client-protocol encoder keeps, seeded: batching never changes the bytes,
// generated interleavings of text, reasoning and parallel calls (finished or cut short) always
// read back under the strict readers with the accumulator's calls, an event type the encoder
// does not know changes nothing, and the stage respects backpressure and passes cancellation up.
import fc from "fast-check";
import {
  AGUIEncoderStream,
  AnthropicMessagesEncoderStream,
  OpenAIResponsesEncoderStream,
  OpenAIChatEncoderStream,
  ProtocolEncoderStream,
  runToolLoop,
  streamToolCalls,
  UIMessageEncoderStream,
  type EncodableEvent,
} from "../../src/index.ts";
import {
  accumulate,
  countingIds,
  ENCODERS,
  encodeAll,
  failed,
  fixtureEvents,
  generatedDeltas,
} from "../support/encoders.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { recording } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import {
  assertCallIds,
  expectedCalls,
  readAGUIEvents,
  readChatChunks,
  readUIChunks,
} from "../support/protocol-readers.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { deferred, endsOrHangs, replayModel } from "../support/tool-fakes.ts";

const protocols = Object.keys(ENCODERS) as (keyof typeof ENCODERS)[];
const fixture = recording;
const decode = (chunks: readonly Uint8Array[]): string =>
  chunks.map((chunk) => new TextDecoder().decode(chunk)).join("");

/** Splits `events` into consecutive batches at the given cut points. */
function batches<T>(events: readonly T[], cuts: readonly number[]): T[][] {
  const points = [...new Set(cuts.map((cut) => cut % (events.length + 1)))].sort((a, b) => a - b);
  return [0, ...points, events.length].slice(1).map((end, i, all) => events.slice(i === 0 ? 0 : all[i - 1], end));
}

group("client-protocol encoders: batching", (test) => {
  for (const protocol of protocols) {
    test(`${protocol}: any batching of the events into arrays gives the same bytes, one chunk per array that shows something`, async () => {
      const events = await fixtureEvents(fixture("anthropic", "parallel-tool-use"));
      const whole = encodeAll(ENCODERS[protocol](), events);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(), { maxLength: 20 }), async (cuts) => {
          const input = batches(events, cuts);
          const chunks = await collect(
            fromChunks<EncodableEvent | readonly EncodableEvent[]>(input).pipeThrough(
              new ProtocolEncoderStream(ENCODERS[protocol]()),
            ),
          );
          assertEquals(decode(chunks), whole);
          assert(chunks.length <= input.length + 1, "at most one chunk per input array, and one at the end");
        }),
        { seed: 15, numRuns: 40 },
      );
    }).needs("recordings");
  }

  test("one event at a time and all events in one array give the same bytes through each stage", async () => {
    const events = await fixtureEvents(fixture("gemini", "vertex-streamed-args-parallel-with-thought"));
    const stages = {
      openai: () => new OpenAIChatEncoderStream({ model: "m", created: 1, generateId: countingIds() }),
      ui: () => new UIMessageEncoderStream({ generateId: countingIds() }),
      "ag-ui": () => new AGUIEncoderStream({ threadId: "t", runId: "r", generateId: countingIds() }),
      anthropic: () => new AnthropicMessagesEncoderStream({ model: "m", id: "msg_1", generateId: countingIds() }),
      responses: () =>
        // A fixed clock: `completed_at` read from the clock differs when the two runs straddle a second.
        new OpenAIResponsesEncoderStream({
          model: "m",
          id: "resp_1",
          createdAt: 1,
          now: () => 2000,
          generateId: countingIds(),
        }),
    };
    for (const make of Object.values(stages)) {
      const one = decode(
        await collect(fromChunks<EncodableEvent | readonly EncodableEvent[]>(events).pipeThrough(make())),
      );
      const all = await collect(fromChunks<EncodableEvent | readonly EncodableEvent[]>([events]).pipeThrough(make()));
      assertEquals(decode(all), one);
      assert(all.length <= 2, "one array in, one chunk out (and the closing one)");
    }
  }).needs("recordings");
});

group("client-protocol encoders: generated streams", (test) => {
  test("any interleaving of text, reasoning and parallel calls, finished or cut short, reads back under every strict reader", async () => {
    await fc.assert(
      fc.asyncProperty(generatedDeltas, async (deltas) => {
        const events = await accumulate(deltas);
        const expected = expectedCalls(events);
        const cut = failed(events);

        const chat = readChatChunks(encodeAll(ENCODERS.openai(), events));
        const choice = chat.choices.get(0);
        assertEquals(Boolean(chat.error), cut, "an error chunk exactly when the response was cut");
        if (!cut) {
          assertEquals(
            (choice?.calls ?? []).map((c) => [c.name, c.arguments]),
            expected.map((c) => [c.name, c.rawArguments]),
          );
          assertCallIds(
            (choice?.calls ?? []).map((c) => c.id),
            expected,
          );
        }

        const ui = readUIChunks(encodeAll(ENCODERS.ui(), events));
        const calls = new Set(
          events.flatMap((e) =>
            e.type === "tool-call-start" || e.type === "tool-call" || e.type === "invalid-tool-call" ? [e.index] : [],
          ),
        );
        assertEquals(ui.tools.length, calls.size, "one tool part per call that started or completed");
        const complete = ui.tools.filter((part) => part.state === "input-available");
        assertEquals(
          complete.map((p) => [p.toolName, p.input]),
          expected.filter((c) => !c.invalid).map((c) => [c.name, c.arguments]),
        );
        if (cut)
          assert(
            ui.tools.every((part) => part.state !== "input-streaming") && ui.finishReason === "error",
            "a cut call ends output-error",
          );

        const agui = readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), events));
        assertEquals(Boolean(agui.error), cut, "RUN_ERROR exactly when the response was cut");
        if (!cut) {
          const calls = agui.messages.find((m) => m.role === "assistant")?.toolCalls ?? [];
          assertEquals(
            calls.map((c) => [c.name, c.arguments]),
            expected.map((c) => [c.name, c.rawArguments]),
          );
          assertCallIds(
            calls.map((c) => c.id),
            expected,
          );
        }

        // One block (item) open at a time: interleaved calls and text come out whole, in start order.
        const messages = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
        assertEquals(Boolean(messages.error), cut, "an error event exactly when the response was cut");
        const responses = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
        assertEquals(
          responses.terminal === "response.failed",
          cut,
          "response.failed exactly when the response was cut",
        );
        if (cut) {
          // Every text delta and complete call seen before the fault is delivered (text held behind a call cut short too).
          const before = events.slice(
            0,
            events.findIndex((e) => failed([e])),
          );
          const text = before.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("");
          assertEquals(responses.text, text);
          assertEquals(
            responses.calls.map((c) => [c.name, c.arguments]),
            expectedCalls(before).map((c) => [c.name, c.rawArguments]),
          );
          // Messages too (a tool_use cut short is left open, never stopped, and what waited behind it follows).
          assertEquals(messages.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(""), text);
          assertEquals(
            messages.content.flatMap((b) => (b.type === "tool_use" && "input" in b ? [[b.name, b.json]] : [])),
            expectedCalls(before).flatMap((c) => (c.invalid ? [] : [[c.name, c.rawArguments]])),
          );
        }
        if (!cut) {
          const blocks = messages.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
          assertEquals(
            blocks.map((c) => [c.name, c.json]),
            expected.map((c) => [c.name, c.rawArguments === "" ? "{}" : c.rawArguments]),
          );
          assertCallIds(
            blocks.map((c) => c.id),
            expected,
          );
          assertEquals(
            responses.calls.map((c) => [c.name, c.arguments]),
            expected.map((c) => [c.name, c.rawArguments]),
          );
          assertCallIds(
            responses.calls.map((c) => c.id),
            expected,
          );
          const text = events.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join("");
          assertEquals(responses.text, text);
          assertEquals(messages.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(""), text);
        }
      }),
      { seed: 1515, numRuns: 150 },
    );
  });
});

group("client-protocol encoders: forward compatibility and violations", (test) => {
  const violation = (id: string | null): unknown => ({
    type: "tool-call-violation",
    index: 1,
    id,
    name: "weather",
    error: { code: "schema-mismatch", message: "City must be a string.", path: "/city" },
  });
  /** The recording's events with a violation after call 1's first delta (and an event type no encoder knows). */
  async function withViolation(): Promise<{ events: EncodableEvent[]; marked: EncodableEvent[] }> {
    const events = await fixtureEvents(fixture("openai", "chat-parallel-tool-calls-two-functions"));
    let seen = false;
    const marked = events.flatMap((event): unknown[] => {
      if (event.type !== "tool-call-delta" || event.index !== 1 || seen) return [event];
      seen = true;
      return [event, violation(event.id), { type: "future-event", index: 1 }];
    });
    return { events, marked: marked as EncodableEvent[] };
  }
  const frames = (text: string): string[] => text.split("\n\n").filter((frame) => frame !== "");

  for (const protocol of protocols) {
    test(`${protocol}: an event type the encoder does not know is skipped`, async () => {
      const events = await fixtureEvents(fixture("openai", "chat-parallel-tool-calls-two-functions"));
      const withUnknown = events.flatMap((event): unknown[] =>
        event.type === "tool-call-delta" ? [event, { type: "future-event", index: event.index }] : [event],
      );
      assertEquals(
        encodeAll(ENCODERS[protocol](), withUnknown as EncodableEvent[]),
        encodeAll(ENCODERS[protocol](), events),
      );
    }).needs("recordings");
  }

  test("openai: a tool-call-violation shows nothing (Chat Completions has no place for it)", async () => {
    const { events, marked } = await withViolation();
    assertEquals(encodeAll(ENCODERS.openai(), marked), encodeAll(ENCODERS.openai(), events));
  }).needs("recordings");

  test("ui: a tool-call-violation is one transient data-tool-call-violation part right after the fragment that settled it", async () => {
    const { events, marked } = await withViolation();
    const plain = frames(encodeAll(ENCODERS.ui(), events));
    const shown = frames(encodeAll(ENCODERS.ui(), marked));
    const added = shown.filter((frame) => !plain.includes(frame));
    assertEquals(added.length, 1, "one frame added");
    const part = JSON.parse(added[0]!.slice("data: ".length)) as {
      type: string;
      id: string;
      data: { toolCallId: string; path: string };
      transient: boolean;
    };
    assertEquals([part.type, part.transient, part.data.path], ["data-tool-call-violation", true, "/city"]);
    assertEquals(part.id, part.data.toolCallId);
    const at = shown.indexOf(added[0]!);
    assert(
      shown[at - 1]!.includes('"tool-input-delta"') && shown[at - 1]!.includes(part.id),
      "right after that call's delta",
    );
    assertEquals(
      shown.filter((frame) => frame !== added[0]),
      plain,
    );
  }).needs("recordings");

  test("ag-ui: a tool-call-violation is one CUSTOM event, between that call's TOOL_CALL_ARGS", async () => {
    const { events, marked } = await withViolation();
    const plain = frames(encodeAll(ENCODERS["ag-ui"](), events));
    const shown = frames(encodeAll(ENCODERS["ag-ui"](), marked));
    const added = shown.filter((frame) => !plain.includes(frame));
    assertEquals(added.length, 1, "one frame added");
    const custom = JSON.parse(added[0]!.slice("data: ".length)) as {
      type: string;
      name: string;
      value: { toolCallId: string; path: string };
    };
    assertEquals([custom.type, custom.name, custom.value.path], ["CUSTOM", "tool-call-violation", "/city"]);
    assertEquals(
      shown.filter((frame) => frame !== added[0]),
      plain,
    );
    assert(
      readAGUIEvents(shown.map((frame) => `${frame}\n\n`).join("")).error === undefined,
      "the strict reader accepts it",
    );
  }).needs("recordings");
});

group("client-protocol encoder stages: streams done right", (test) => {
  const stages = {
    openai: () => new OpenAIChatEncoderStream({ model: "m" }),
    ui: () => new UIMessageEncoderStream(),
    "ag-ui": () => new AGUIEncoderStream({ threadId: "t", runId: "r" }),
    anthropic: () => new AnthropicMessagesEncoderStream({ model: "m" }),
    responses: () => new OpenAIResponsesEncoderStream({ model: "m" }),
  };
  const sse = fixture("openai", "chat-single-tool-call-strict-usage").text;
  const chunks = sse.split(/(?<=\n\n)/).map((frame) => bytes(frame));

  for (const [protocol, make] of Object.entries(stages)) {
    test(`${protocol}: a client that stops reading holds the provider back, and cancelling reaches the provider's body`, async () => {
      // The provider's chunks come over time, as a network's do (a stage takes at once what is ready).
      const source = recordingSource(chunks);
      const upstream = source.stream.getReader();
      const arriving = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            for (let turn = 0; turn < 20; turn++) await null;
            const next = await upstream.read();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          cancel: (reason) => upstream.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      const reader = streamToolCalls(arriving, { provider: "openai" }).pipeThrough(make()).getReader();
      await reader.read();
      for (let i = 0; i < 200; i++) await Promise.resolve();
      assert(
        source.pulled < chunks.length / 2,
        `an unread stage pulls only what its queues hold (${source.pulled} of ${chunks.length})`,
      );
      await reader.cancel("client went away");
      await eventually(() => source.cancelled !== undefined, "the cancel reaches the source");
    }).needs("recordings");
  }

  for (const [protocol, make] of Object.entries(stages))
    test(`${protocol}: piped one event at a time, the events that are ready are one chunk; a lone event is written at once`, async () => {
      const events = await fixtureEvents(fixture("openai", "chat-single-tool-call-strict-usage"));
      const whole = await collect(fromChunks<EncodableEvent>(events).pipeThrough(make()));
      assertEquals(whole.length, 1, `${events.length} ready events in one chunk`);
      // The first event alone, then nothing: its bytes come without waiting for a second.
      let give: (() => void) | undefined;
      const first = new ReadableStream<EncodableEvent>({
        start: (controller) => controller.enqueue(events[0]!),
        pull: () => new Promise<void>((resolve) => void (give = resolve)),
      });
      const reader = first.pipeThrough(make()).getReader();
      const chunk = await reader.read();
      assert(!chunk.done && chunk.value.length > 0, "the first event's bytes");
      give?.();
      await reader.cancel("done");
    }).needs("recordings");

  // The end of the one response Chat Completions, Messages and Responses show, AG-UI's RUN_ERROR:
  // past it the stage has nothing more to write, and a provider body that stays open is not read on.
  for (const protocol of ["openai", "anthropic", "responses", "ag-ui"] as const)
    test(`${protocol}: once the encoder wrote its last event, the input is cancelled with a reason, not read on`, async () => {
      const events = await fixtureEvents(fixture("openai", "chat-single-tool-call-strict-usage"));
      const shown: EncodableEvent[] =
        protocol === "ag-ui"
          ? [...events.slice(0, 2), { type: "abort", reason: "stream-failed", discarded: [] }]
          : events;
      let at = 0;
      let reads = 0;
      let cancelled: { reason: unknown } | undefined;
      const input = new ReadableStream<EncodableEvent>(
        {
          pull(controller) {
            reads++;
            // Past the response's events the body stays open: a keep-alive, a tool loop's next step.
            if (at < shown.length) controller.enqueue(shown[at++]!);
            else return new Promise<void>(() => undefined);
          },
          cancel: (reason) => void (cancelled = { reason }),
        },
        { highWaterMark: 0 },
      );
      const output = await endsOrHangs(input.pipeThrough(stages[protocol]()));
      assert(output !== "hung" && decode(output).length > 0, "the output closed after the last event");
      await eventually(() => cancelled !== undefined, "the input is cancelled");
      assertEquals(typeof cancelled?.reason, "string");
      assert(reads <= shown.length + 1, "the input is not read on after it");
    }).needs("recordings");

  test("an encoder that throws (an application's callback) errors the output after what came before, and cancels the input with the error", async () => {
    const broken = new Error("no ids today");
    for (const mode of ["single, the third later", "single, all ready", "arrays"] as const) {
      let cancelled: { reason: unknown } | undefined;
      let sent = 0;
      const event: EncodableEvent = { type: "text-delta", text: "hi" };
      const input = new ReadableStream<EncodableEvent | EncodableEvent[]>(
        {
          async pull(controller) {
            // The third input comes later (a network's pace) or at once.
            if (++sent === 3 && mode === "single, the third later") for (let turn = 0; turn < 40; turn++) await null;
            controller.enqueue(mode === "arrays" ? [event] : event);
          },
          cancel: (reason) => void (cancelled = { reason }),
        },
        { highWaterMark: 0 },
      );
      let encoded = 0;
      const stage = new ProtocolEncoderStream<EncodableEvent>({
        encode(_event, out) {
          out.push("x");
          if (++encoded === 3) throw broken;
        },
        end: () => undefined,
      });
      const reader = input.pipeThrough(stage).getReader();
      let text = "";
      let failure: unknown;
      for (;;) {
        const next = await reader.read().catch((error: unknown) => ((failure = error), undefined));
        if (next === undefined || next.done) break;
        text += new TextDecoder().decode(next.value);
      }
      assertEquals([text, failure], ["xx", broken], `${mode}: what came before, then the encoder's error`);
      await eventually(() => cancelled !== undefined, `${mode}: the input is cancelled`);
      assertEquals(cancelled?.reason, broken, mode);
    }
  });

  for (const [protocol, make] of Object.entries(stages))
    test(`${protocol}: a response piped into the stage's writable (pipeTo) settles, and a writer's close resolves`, async () => {
      const events = await fixtureEvents(fixture("openai", "chat-single-tool-call-strict-usage"));
      const piped = make();
      const read = collect(piped.readable);
      await fromChunks(events).pipeTo(piped.writable);
      const written = make();
      const text = collect(written.readable);
      const writer = written.writable.getWriter();
      for (const event of events) await writer.write(event);
      await writer.close();
      assertEquals(decode(await read).length > 0 && (await text).length > 0, true);
    }).needs("recordings");

  // Chat Completions, Messages and Responses show one response (a loop's first step): once it ended, nobody reads
  // the loop's later steps, and a loop that went on would call the model and run the tools up to maxSteps for nobody.
  for (const protocol of ["openai", "anthropic", "responses"] as const)
    test(`${protocol}: over runToolLoop, the stage ends with its one response and the loop calls the model no more`, async () => {
      const step = fixture("openai", "chat-single-tool-call-strict-usage");
      const model = replayModel(Array.from({ length: 8 }, () => step.text));
      let runs = 0;
      const loop = runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "hi" }],
        tools: { [expectedCalls(await fixtureEvents(step))[0]!.name]: { run: () => String(++runs) } },
        call: model.call,
      });
      const text = decode(await collect(loop.pipeThrough(stages[protocol]())));
      assert(text.length > 0, "the first step is shown");
      assertEquals([model.requests.length, runs <= 1], [1, true]);
    }).needs("recordings");

  // Its client reads to the end of the body (openai-node and the Anthropic SDK read on after [DONE] and message_stop):
  // a stage that closed only at the loop's next event kept it waiting for the tools of a step nobody shows.
  for (const protocol of ["openai", "anthropic", "responses"] as const)
    test(`${protocol}: over runToolLoop, the stage's output closes with its one response, not when the step's tools settle`, async () => {
      const step = fixture("openai", "chat-single-tool-call-strict-usage");
      const model = replayModel(Array.from({ length: 8 }, () => step.text));
      const tool = deferred<string>();
      const loop = runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "hi" }],
        tools: { [expectedCalls(await fixtureEvents(step))[0]!.name]: { run: () => tool.promise } },
        call: model.call,
      });
      // The tool settles only after the output ended: an output that waits for it never ends (the bound stops the test).
      const output = await endsOrHangs(loop.pipeThrough(stages[protocol]()));
      tool.resolve("done");
      assert(output !== "hung" && decode(output).length > 0, "the output closed while the step's tool still ran");
      assertEquals(model.requests.length, 1);
    }).needs("recordings");

  for (const [protocol, make] of Object.entries(stages))
    test(`${protocol}: an input that fails after the response ended leaves the client a whole response`, async () => {
      const events = await fixtureEvents(fixture("openai", "chat-single-tool-call-strict-usage"));
      const stage = make();
      const read = collect(stage.readable);
      const writer = stage.writable.getWriter();
      for (const event of events) await writer.write(event);
      if (protocol === "ui" || protocol === "ag-ui") {
        // These show the whole input: a failure after its events is the stream's.
        await writer.abort(new Error("connection reset"));
        assertEquals(
          await read.then(
            () => "closed",
            (error: Error) => error.message,
          ),
          "connection reset",
        );
        return;
      }
      await writer.abort(new Error("connection reset"));
      assert(decode(await read).length > 0, "the response that ended is read whole, without the later failure");
    }).needs("recordings");
});
