import {
  createProviderDecoder,
  createProviderDeltaStream,
  FramingDetectStream,
  IncrementalJsonParser,
  restoreAccumulator,
  snapshotAccumulator,
  SSEDecoderStream,
  ToolCallAccumulator,
  ToolCallAccumulatorStream,
  type ProviderDelta,
  type SSEMessage,
  type ToolCallEvent,
} from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { feed } from "../support/accumulator-runs.ts";
import { collect, fromChunks } from "../support/streams.ts";

group("ToolCallAccumulator snapshot and restore", (test) => {
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (!provider) continue;
    test(`${fixture.provider}/${fixture.name}: cut at every delta, restored from JSON, gives the unbroken run`, async () => {
      const deltas = await collect(
        fromChunks([fixture.body])
          .pipeThrough(new FramingDetectStream())
          .pipeThrough(createProviderDeltaStream(provider)),
      );
      const unbroken = feed(deltas, true).events;
      for (let cut = 0; cut <= deltas.length; cut++) {
        const first = feed(deltas.slice(0, cut), false);
        const second = feed(deltas.slice(cut), true, snapshotAccumulator(first.accumulator));
        assertEquals([...first.events, ...second.events], unbroken, `cut after ${cut} of ${deltas.length} deltas`);
      }
    });
  }

  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (!provider) continue;
    test(`${fixture.provider}/${fixture.name}: with partial arguments on, cut at every delta, gives the unbroken run`, async () => {
      const deltas = await collect(
        fromChunks([fixture.body])
          .pipeThrough(new FramingDetectStream())
          .pipeThrough(createProviderDeltaStream(provider)),
      );
      const options = { partialParser: IncrementalJsonParser };
      const unbroken = feed(deltas, true, undefined, options).events;
      for (let cut = 0; cut <= deltas.length; cut++) {
        const first = feed(deltas.slice(0, cut), false, undefined, options);
        const second = feed(deltas.slice(cut), true, snapshotAccumulator(first.accumulator), options);
        assertEquals([...first.events, ...second.events], unbroken, `cut after ${cut} of ${deltas.length} deltas`);
      }
    });
  }

  for (const fixture of allFixtures.filter((f) => supportedProvider(f) === "openai-responses")) {
    const numbered = (message: SSEMessage): boolean => /"sequence_number":\s*\d/.test(message.data);
    if (!/"sequence_number"/.test(fixture.text)) continue;
    test(`${fixture.provider}/${fixture.name}: events out of order, the accumulator swapped at every SSE event while the reorderer holds some`, async () => {
      const messages = await collect(fromChunks([fixture.body]).pipeThrough(new SSEDecoderStream()));
      // Seeded local swaps of numbered events (within the reorder window): the decoder must hold events back.
      const shuffled = [...messages];
      let state = fixture.name.length * 7919;
      for (let i = 1; i + 2 < shuffled.length; i += 3) {
        state = (state * 1103515245 + 12345) % 2 ** 31;
        const j = i + 1 + (state % 2);
        if (numbered(shuffled[i]!) && numbered(shuffled[j]!)) [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
      }
      const decodeAll = (input: readonly SSEMessage[]): ProviderDelta[] => {
        const out: ProviderDelta[] = [];
        const decoder = createProviderDecoder("openai-responses", (delta) => out.push(delta));
        for (const message of input) decoder.decode(message);
        decoder.end();
        return out;
      };
      const inOrder = decodeAll(messages);
      assertEquals(decodeAll(shuffled), inOrder, "the reorderer puts the shuffled events back in order");
      const unbroken = feed(inOrder, true, undefined, { partialParser: IncrementalJsonParser }).events;
      let heldAtSomeCut = false;
      for (let cut = 0; cut <= shuffled.length; cut++) {
        const events: ToolCallEvent[] = [];
        const options = { partialParser: IncrementalJsonParser };
        const keep = (event: ToolCallEvent): void => void events.push(structuredClone(event));
        let current = new ToolCallAccumulator(keep, options);
        let emitted = 0;
        const decoder = createProviderDecoder("openai-responses", (delta) => {
          emitted++;
          current.push(delta);
        });
        shuffled.slice(0, cut).forEach((message) => decoder.decode(message));
        if (emitted < decodeAll(messages.filter((m) => shuffled.slice(0, cut).includes(m))).length)
          heldAtSomeCut = true;
        const saved = JSON.stringify(snapshotAccumulator(current));
        current = restoreAccumulator(new ToolCallAccumulator(keep, options), JSON.parse(saved));
        shuffled.slice(cut).forEach((message) => decoder.decode(message));
        decoder.end();
        current.end();
        assertEquals(events, unbroken, `swapped after SSE event ${cut} of ${shuffled.length}`);
      }
      assert(heldAtSomeCut, "at some cut the reorderer was holding events");
    });
  }

  test("a call completed after a provider error is `stopped` in a run restored after the error, as in the unbroken one", () => {
    // The call's value is still open at the error (not whole: it goes on); its end comes after.
    const deltas: ProviderDelta[] = [
      { type: "tool-call-chunk", index: 0, id: "c1", name: "f", argumentsDelta: '{"x":' },
      { type: "error", error: { code: "provider-error", message: "Overloaded." } },
      { type: "tool-call-chunk", index: 0, argumentsDelta: " 1}" },
      { type: "tool-call-end", index: 0 },
    ];
    const whole = feed(deltas, true);
    const call = whole.events.find((event) => event.type === "tool-call");
    assertEquals(call?.type === "tool-call" && call.stopped, true);
    for (let cut = 0; cut <= deltas.length; cut++) {
      const first = feed(deltas.slice(0, cut), false);
      const resumed = feed(deltas.slice(cut), true, JSON.parse(JSON.stringify(snapshotAccumulator(first.accumulator))));
      assertEquals([...first.events, ...resumed.events], whole.events, `restored at ${cut}`);
    }
  });

  test("a call under an id a completed call had gets the same suffix in a run restored at any cut", () => {
    const call = (index: number, name: string): ProviderDelta[] => [
      { type: "tool-call-chunk", index, id: "c1", name, argumentsDelta: "{}" },
      { type: "tool-call-end", index },
    ];
    const deltas = [...call(0, "f"), ...call(1, "g"), ...call(2, "h")];
    const whole = feed(deltas, true);
    const ids = whole.events.flatMap((event) => (event.type === "tool-call" ? [event.id] : []));
    assertEquals(ids, ["c1", "c1_2", "c1_3"]);
    for (let cut = 0; cut <= deltas.length; cut++) {
      const first = feed(deltas.slice(0, cut), false);
      const resumed = feed(deltas.slice(cut), true, JSON.parse(JSON.stringify(snapshotAccumulator(first.accumulator))));
      assertEquals([...first.events, ...resumed.events], whole.events, `restored at ${cut}`);
    }
  });

  test("ToolCallAccumulatorStream continues from a snapshot taken between writes", async () => {
    const deltas: ProviderDelta[] = [
      { type: "text-delta", text: "a" },
      { type: "tool-call-chunk", index: 0, id: "c1", name: "f", argumentsDelta: '{"x":' },
      { type: "tool-call-chunk", index: 0, argumentsDelta: " 1}" },
      { type: "finish", rawReason: "tool_calls" },
      { type: "done" },
    ];
    const first = new ToolCallAccumulatorStream();
    const firstEvents = collect(first.readable);
    const writer = first.writable.getWriter();
    await writer.write(deltas[0]!);
    await writer.write(deltas[1]!);
    const snapshot = snapshotAccumulator(first);
    await writer.abort("moved elsewhere");
    await firstEvents.catch(() => []);
    const rest = await collect(
      fromChunks(deltas.slice(2)).pipeThrough(restoreAccumulator(new ToolCallAccumulatorStream(), snapshot)),
    );
    const final = rest.at(-1);
    assertEquals(final?.type === "finish" ? final.toolCalls.map((c) => [c.id, c.arguments]) : [], [["c1", { x: 1 }]]);
    assertEquals(final?.type === "finish" ? final.text : "", "a");
  });

  test("a restore refuses a snapshot of another version and a target that was already fed", () => {
    const fed = new ToolCallAccumulator(() => {});
    fed.push({ type: "tool-call-chunk", index: 0, id: "c1", name: "f", argumentsDelta: "{" });
    const snapshot = snapshotAccumulator(fed);
    const codeOf = (run: () => unknown): unknown => {
      try {
        run();
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
      return "no error";
    };
    assertEquals(
      codeOf(() => restoreAccumulator(new ToolCallAccumulator(() => {}), { ...snapshot, version: 1 as 2 })),
      "invalid-snapshot",
    );
    assertEquals(
      codeOf(() => restoreAccumulator(fed, snapshot)),
      "invalid-snapshot",
    );
    const text = new ToolCallAccumulator(() => {});
    text.push({ type: "text-delta", text: "a" });
    assertEquals(
      codeOf(() => restoreAccumulator(text, snapshot)),
      "invalid-snapshot",
    );
    const usage = new ToolCallAccumulator(() => {});
    usage.push({ type: "usage", usage: { raw: {}, inputTokens: 1 } });
    assertEquals(
      codeOf(() => restoreAccumulator(usage, snapshot)),
      "invalid-snapshot",
    );
    const part = new ToolCallAccumulator(() => {});
    part.push({ type: "reasoning-part", part: { type: "redacted", data: "x" } });
    assertEquals(
      codeOf(() => restoreAccumulator(part, snapshot)),
      "invalid-snapshot",
    );
    assertEquals(
      codeOf(() => restoreAccumulator(new ToolCallAccumulatorStream(), snapshot)),
      "no error",
    );
  });

  test("a restore refuses a stream that was already fed", async () => {
    const snapshot = snapshotAccumulator(new ToolCallAccumulator(() => {}));
    const stream = new ToolCallAccumulatorStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    const read = reader.read();
    await writer.write({ type: "text-delta", text: "a" });
    await read;
    let code: unknown = "no error";
    try {
      restoreAccumulator(stream, snapshot);
    } catch (error) {
      code = (error as { code?: unknown }).code;
    }
    assertEquals(code, "invalid-snapshot");
  });
});
