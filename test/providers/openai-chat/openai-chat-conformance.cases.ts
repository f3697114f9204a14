import fc from "fast-check";
import { streamToolCalls } from "../../../src/index.ts";
import { chatFixtures } from "../../support/chat-fixtures.ts";
import { summarize } from "../../support/fixtures.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, runOpenAIChain, splitAt } from "../../support/streams.ts";

group("OpenAI Chat conformance (recorded streams)", (test) => {
  for (const fixture of chatFixtures) {
    test(`${fixture.provider}/${fixture.name} gives the recorded result`, async () => {
      const events = await runOpenAIChain([fixture.body]);
      assertEquals(summarize(events), fixture.expected);
      assertEventInvariants(events);
    });
  }

  test("streamToolCalls gives the same events as the explicit pipeThrough chain", async () => {
    for (const fixture of chatFixtures) {
      const chain = await runOpenAIChain([fixture.body]);
      const wired = await collect(streamToolCalls(new Response(fixture.body), { provider: "openai" }));
      assertEquals(wired, chain, fixture.name);
    }
  });
});

group("OpenAI Chat re-chunking (property)", (test) => {
  for (const fixture of chatFixtures) {
    test(`${fixture.provider}/${fixture.name}: any split of the bytes gives the same events`, async () => {
      const data = fixture.body;
      const whole = await runOpenAIChain([data]);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
          assertEquals(await runOpenAIChain(splitAt(data, cuts)), whole);
        }),
        { seed: 20261122, numRuns: 15 },
      );
    });
  }

  test("one byte at a time, through 杭州市 split inside each character, gives the same events", async () => {
    const sse = `${[
      { choices: [{ index: 0, delta: { content: "天气:" } }] },
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: "call_1",
                  type: "function",
                  function: { name: "get_weather", arguments: '{"location":' },
                },
              ],
            },
          },
        ],
      },
      {
        choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: "", function: { arguments: ' "杭州市"}' } }] } }],
      },
      { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
    ]
      .map((p) => `data: ${JSON.stringify(p)}\n\n`)
      .join("")}data: [DONE]\n\n`;
    const data = bytes(sse);
    const whole = await runOpenAIChain([data]);
    const single = await runOpenAIChain(
      splitAt(
        data,
        Array.from({ length: data.length }, (_, i) => i),
      ),
    );
    assertEquals(single, whole);
    assertEquals(summarize(whole).toolCalls, [
      { id: "call_1", name: "get_weather", arguments: { location: "杭州市" } },
    ]);
    assertEquals(summarize(whole).text, "天气:");
  });

  test("CR LF split between two network chunks is one line end", async () => {
    const sse =
      'data: {"choices":[{"index":0,"delta":{"content":"a"}}]}\r\n\r\ndata: {"choices":[{"index":0,"delta":{"content":"b"},"finish_reason":"stop"}]}\r\n\r\ndata: [DONE]\r\n\r\n';
    const data = bytes(sse);
    const whole = await runOpenAIChain([data]);
    for (let cut = 1; cut < data.length; cut++)
      assertEquals(await runOpenAIChain(splitAt(data, [cut])), whole, `cut at ${cut}`);
    assertEquals(summarize(whole).text, "ab");
  });
});

group("OpenAI Chat interleaved parallel calls (property)", (test) => {
  test("any interleaving of parallel calls' fragments by index gives the same final calls", async () => {
    const calls = [
      { id: "call_a", name: "get_weather", args: '{"city": "Paris", "units": "c"}' },
      { id: "call_b", name: "get_time", args: '{"zone": "Europe/Paris"}' },
      { id: "call_c", name: "search", args: '{"query": "杭州 weather", "limit": 3}' },
    ];
    const fragments = (text: string, size: number): string[] => text.match(new RegExp(`[^]{1,${size}}`, "g")) ?? [];
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 7 }),
        fc.array(fc.nat(), { minLength: 64, maxLength: 64 }),
        async (size, picks) => {
          const queues = calls.map((call, index) => [
            { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
            ...fragments(call.args, size).map((arguments_) => ({ index, function: { arguments: arguments_ } })),
          ]);
          const payloads: unknown[] = [];
          let p = 0;
          while (queues.some((q) => q.length > 0)) {
            const open = queues.filter((q) => q.length > 0);
            const queue = open[(picks[p++ % picks.length] ?? 0) % open.length]!;
            payloads.push({ choices: [{ index: 0, delta: { tool_calls: [queue.shift()] } }] });
          }
          payloads.push({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
          const sse = `${payloads.map((x) => `data: ${JSON.stringify(x)}\n\n`).join("")}data: [DONE]\n\n`;
          const events = await collect(streamToolCalls(fromChunks([bytes(sse)])));
          assertEventInvariants(events);
          assertEquals(
            summarize(events).toolCalls,
            calls.map((c) => ({ id: c.id, name: c.name, arguments: JSON.parse(c.args) })),
          );
        },
      ),
      { seed: 7, numRuns: 60 },
    );
  });
});
