// a call id the client sends back carries, after `__xc_`, base64url JSON the Worker parses
// (thought-signatures.ts carried: `JSON.parse(text)`, up to 65,536 characters of base64): a text
// with member names past 16,383 characters is parsed, and its names interned, with no
// longMemberName check, where de4147e2 says the Worker parses no such text a body carries.
import { describe, expect, it } from "vitest";
import { name, parsedLongNames } from "../support/long-names.ts";
import { clientFetch, DeepSeekFake, MODEL } from "./deepseek-fake.ts";

const base64url = (text: string): string => btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
/** Two names of 16,400 characters, alike but for their ends: 32,8xx characters, 43,8xx of base64. */
const extra = JSON.stringify({ [name("a")]: 1, [name("b")]: 2 });
const id = `call_1__xc_${base64url(extra)}`;

async function post(path: string, body: unknown): Promise<number> {
  const response = await clientFetch(new DeepSeekFake())(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

describe("a marked call id's JSON is checked for long member names before it is parsed", () => {
  it("/v1/chat/completions", async () => {
    expect(id.length).toBeLessThan(65_536);
    const body = {
      model: MODEL,
      stream: true,
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id, type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { role: "tool", tool_call_id: id, content: "18" },
      ],
      tools: [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }],
    };
    expect(await parsedLongNames(() => post("/v1/chat/completions", body))).toBe(0);
  });

  it("/v1/ag-ui", async () => {
    const body = {
      threadId: "t",
      runId: "r",
      messages: [
        { id: "u1", role: "user", content: "hi" },
        {
          id: "a1",
          role: "assistant",
          toolCalls: [{ id, type: "function", function: { name: "lookup", arguments: "{}" } }],
        },
        { id: "t1", role: "tool", toolCallId: id, content: "18" },
      ],
      tools: [{ name: "lookup", description: "d", parameters: { type: "object" } }],
      forwardedProps: { model: MODEL },
    };
    expect(await parsedLongNames(() => post("/v1/ag-ui", body))).toBe(0);
  });
});
