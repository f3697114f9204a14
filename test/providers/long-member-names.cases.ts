// JSON text with member names past 16,383 characters is never given to `JSON.parse` by the request
// kits: V8 hashes such a name by its length alone, so many of them of one length parse in quadratic
// time, and the names stay in the isolate's string table (src/shared/long-member-name.ts). A tool
// result's text holding them goes to the provider as text, as a result that is not JSON does.
import { longMemberName } from "../../src/core.ts";
import { providerKit, type ProviderRequest } from "../../src/index.ts";
import { approvalAnswer } from "../../src/providers/openai-responses/openai-responses-approvals.ts";
import { assertEquals, group } from "../support/harness.ts";

/** An object of two names of 16,400 characters, alike but for their ends. */
const LONG = `{"${"k".repeat(16_399)}a":1,"${"k".repeat(16_399)}b":2}`;

/** A second turn whose tool result is `content`. */
function turn(content: string): ProviderRequest {
  return {
    model: "m-1",
    messages: [
      { role: "user", content: "Weather in Paris?" },
      { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "get_weather", arguments: {} }] },
      { role: "tool", toolCallId: "call_1", content },
    ],
    tools: [{ name: "get_weather", parameters: { type: "object" } }],
  };
}

/** The texts past 16,383 characters `run` gives `JSON.parse`. */
function parsedLongTexts(run: () => void): string[] {
  const parse = JSON.parse;
  const seen: string[] = [];
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && text.length > 16_383) seen.push(text);
    return parse(text, reviver);
  };
  try {
    run();
  } finally {
    JSON.parse = parse;
  }
  return seen;
}

group("Member names V8 parses in quadratic time", (test) => {
  test("longMemberName finds a name past 16,383 characters once read, not a value that long", () => {
    assertEquals(longMemberName(LONG), 1);
    assertEquals(longMemberName(`{"a":"${"v".repeat(40_000)}"}`), undefined);
    assertEquals(longMemberName(`{"${"k".repeat(16_382)}\\u0041":1}`), undefined);
    assertEquals(longMemberName(`[1,{"b":2,"${"k".repeat(16_384)}" :3}]`), 10);
  });

  test("the request kits send a tool result's text of such names as text, never parsed", () => {
    for (const content of [LONG, `[${LONG}]`]) {
      const seen = parsedLongTexts(() => {
        for (const provider of ["gemini", "openai-responses"] as const)
          providerKit(provider).requestBody(turn(content));
      });
      assertEquals(seen.length, 0, `${content.slice(0, 2)}: texts parsed`);
    }
    const contents = providerKit("gemini").requestBody(turn(LONG))["contents"] as {
      parts: Record<string, unknown>[];
    }[];
    assertEquals(contents.at(-1)!.parts[0]!["functionResponse"], {
      name: "get_weather",
      id: "call_1",
      response: { result: LONG },
    });
    // A result of short names is still an object, as Gemini wants it.
    const short = providerKit("gemini").requestBody(turn('{"celsius":18}'))["contents"] as {
      parts: Record<string, unknown>[];
    }[];
    assertEquals((short.at(-1)!.parts[0]!["functionResponse"] as { response: unknown }).response, { celsius: 18 });
  });

  test("an MCP approval's answer of such names is not parsed: no answer", () => {
    assertEquals(
      parsedLongTexts(() => assertEquals(approvalAnswer(LONG), { approve: false })),
      [],
    );
  });
});
