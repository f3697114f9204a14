import { OpenAIChatEncoder, type EncodableEvent } from "../../src/index.ts";
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
});
