import { OpenAIChatCompletionBuilder, OpenAIChatEncoder, type EncodableEvent } from "../../src/index.ts";
import { pushSent } from "../../src/encode/sent-fragments.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

group("pushSent (what an encoder keeps of a call's fragments)", (test) => {
  test("10,000 fragments are kept in at most 64 entries, in order, and only the first push leaves one", () => {
    const sent: string[] = [];
    let whole = "";
    for (let i = 0; i < 10_000; i++) {
      const fragment = String(i % 10).repeat((i % 4) + 1);
      pushSent(sent, fragment);
      whole += fragment;
      assert(sent.length <= 64, `${sent.length} entries after ${i + 1} fragments`);
      assert(i === 0 || sent.length > 1, `a single entry after push ${i + 1}`);
    }
    assertEquals(sent.join(""), whole);
  });

  test("the OpenAI Chat encoder sends what a call's final arguments add to 10,000 streamed fragments, and nothing when they are the same", () => {
    const frames = (final: string): string[] => {
      const encoder = new OpenAIChatEncoder({ model: "m", id: "chatcmpl-1", created: 1 });
      const out: string[] = [];
      const call = { index: 0, id: "call_1" };
      encoder.encode({ type: "tool-call-start", ...call, name: "write" } as EncodableEvent, out);
      for (let i = 0; i < 10_000; i++)
        encoder.encode({ type: "tool-call-delta", ...call, argumentsDelta: "x", closed: false } as EncodableEvent, out);
      const start = out.length;
      encoder.encode(
        { type: "tool-call", ...call, name: "write", arguments: {}, rawArguments: final } as EncodableEvent,
        out,
      );
      return out.slice(start);
    };
    assertEquals(frames("x".repeat(10_000)), []);
    const rest = frames(`${"x".repeat(10_000)}yz`);
    assertEquals(rest.length, 1);
    assert(rest[0]!.includes('"arguments":"yz"'), rest[0]);
    assertEquals(
      frames("replaced"),
      [],
      "a final value that replaced the streamed one cannot be told: nothing is sent",
    );
  });

  test("the Chat completion builder keeps 10,000 text, reasoning and argument deltas in at most 64 entries each", () => {
    const builder = new OpenAIChatCompletionBuilder({ model: "m", id: "chatcmpl-1", created: 1 });
    const call = { index: 0, id: "call_1" };
    builder.add({ type: "tool-call-start", ...call, name: "write" } as EncodableEvent);
    for (let i = 0; i < 10_000; i++)
      builder.add([
        { type: "text-delta", text: String(i % 10) },
        { type: "reasoning-delta", text: "r" },
        { type: "tool-call-delta", ...call, argumentsDelta: "x", closed: false },
      ] as EncodableEvent[]);
    // The builder reads a finish's reason and usage alone.
    builder.add({ type: "finish", reason: "stop" } as unknown as EncodableEvent);
    // The entries each array holds, counted where the completion joins them.
    const joined: number[] = [];
    const join = Array.prototype.join;
    Array.prototype.join = function (this: unknown[], separator?: string) {
      joined.push(this.length);
      return join.call(this, separator);
    };
    let result: ReturnType<OpenAIChatCompletionBuilder["result"]>;
    try {
      result = builder.result();
    } finally {
      Array.prototype.join = join;
    }
    assert(result.type === "completion", "a completion");
    const { message } = result.completion.choices[0]!;
    const written = message.tool_calls?.[0];
    assertEquals(
      [message.content, message.reasoning_content, written?.type === "function" && written.function.arguments],
      [Array.from({ length: 10_000 }, (_, i) => i % 10).join(""), "r".repeat(10_000), "x".repeat(10_000)],
    );
    assert(joined.length >= 3 && joined.every((entries) => entries <= 64), `entries joined: ${joined.join(", ")}`);
  });
});
