// offline (no provider key), the Worker's scripted model JSON.parses the arguments and
// tool results of the request the Worker built from the client's history
// (worker/upstream/replay/scripted/transcript.ts parse()): a result text holding member names past
// 16,383 characters, which the kits send as text unparsed (de4147e2), is parsed there.
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { name, parsedLongNames } from "../support/long-names.ts";

import { ManualTimers, testEnv } from "./support.ts";

const result = JSON.stringify({ [name("a")]: 1, [name("b")]: 2 });

describe("the scripted model parses no text with long member names", () => {
  it("a tool result of such names in a /v1/chat/completions history: never parsed as names", async () => {
    const handler = createFetchHandler({
      fetch: async () => new Response("no network", { status: 599 }),
      timers: new ManualTimers(),
    });
    const body = {
      model: "openai/gpt-4o-mini",
      stream: true,
      messages: [
        { role: "user", content: "What time is it in Tokyo?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: "call_1", content: result },
      ],
      tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }],
    };
    let status = 0;
    const parses = await parsedLongNames(async () => {
      const response = await handler(
        new Request("http://localhost:8787/v1/chat/completions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        testEnv(),
      );
      status = response.status;
      await response.text();
    });
    expect(status).toBe(200);
    // The bodies (the client's, the one the Worker built) hold the text as a string value, escaped: none is a name.
    expect(parses).toBe(0);
  });
});
