// A request body with member names past 16,383 characters is refused before `JSON.parse`: V8 hashes
// such a string by its length alone, so many of them of one length make the parse quadratic (an
// 8 MB body of 510 names: 174 ms against 3 ms at 1 MB), an isolate's time one client spends for all.
// The same bytes as string values are read as before. The answer is a 400 in the endpoint's shape.
// Every body is scanned, whatever its size: the names V8 interns stay in the isolate's one string
// table until a full collection, so small bodies of a few such names each add up across requests;
// and so is a call's arguments text, whose names the body's scan sees as one string value.
import { describe, expect, it } from "vitest";
import { longMemberName } from "../../src/core.ts";
import { sealPart, unsealPart } from "../../worker/protocols/reasoning-state.ts";
import type { HttpError } from "../../worker/response/json-error.ts";
import { limitRefusal } from "../../worker/upstream/limit-refusal.ts";
import { awsErrorType } from "../../worker/upstream/providers/aws-refusal.ts";
import { name, parsedLongNames } from "../support/long-names.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const MiB = 1024 * 1024;
const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", MAX_BODY_BYTES: 4 * MiB, MAX_AGENT_BODY_BYTES: 4 * MiB });

/** 80 texts of 16,400 characters alike but for their ends (1.3 MB). */
const LONG = Array.from({ length: 80 }, (_, i) => `${"k".repeat(16_392)}${String(i).padStart(8, "0")}`);

/** `body` posted to `endpoint`'s path, its provider `upstream`. */
const send = (upstream: FakeUpstream, endpoint: { path: string }, body: unknown): Promise<Response> =>
  worker(upstream).call(
    new Request(`http://localhost:8787${endpoint.path}`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify(body),
    }),
    env,
  );

describe("member names V8 would parse in quadratic time", () => {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): a 400 in the endpoint's shape before the parse, no provider request`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      const body = { ...endpoint.valid(), metadata: Object.fromEntries(LONG.map((text) => [text, "v"])) };
      const response = await send(upstream, endpoint, body);
      expect(response.status).toBe(400);
      const error = await endpoint.expectError(response);
      expect(error.message).toMatch(
        /^The request body has a member name longer than 16383 characters \(at character \d+\)\.$/,
      );
      expect(upstream.requests).toEqual([]);
    });

    // Failed before: a body of at most 1 MiB was not scanned (answered otherwise).
    it(`${endpoint.path} (${name}): a small body with one such name is refused too`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      const body = { ...endpoint.valid(), metadata: { [LONG[0]!]: "v" } };
      const response = await send(upstream, endpoint, body);
      expect(response.status).toBe(400);
      expect((await endpoint.expectError(response)).message).toMatch(/member name longer than 16383 characters/);
      expect(upstream.requests).toEqual([]);
    });
  }

  // Failed before: the arguments text was parsed (the body's scan sees it as a string value).
  it("a call's arguments sent back as JSON text with such a name are a 400 naming the arguments", async () => {
    for (const [name, path] of [
      ["chat", "messages[1].tool_calls[0].function.arguments"],
      ["agui", "messages[1].toolCalls[0].function.arguments"],
    ] as const) {
      const endpoint = endpoints[name]!;
      const body = endpoint.valid() as { messages: Record<string, { function: { arguments: string } }[]>[] };
      const call = body.messages[1]![name === "chat" ? "tool_calls" : "toolCalls"]![0]!;
      call.function.arguments = JSON.stringify(Object.fromEntries(LONG.slice(0, 2).map((text) => [text, 1])));
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      const response = await send(upstream, endpoint, body);
      expect(response.status).toBe(400);
      expect((await endpoint.expectError(response)).field).toBe(path);
      expect(upstream.requests).toEqual([]);
    }
  });
});

describe("an MCP approval request's arguments sent back as JSON text", () => {
  // Failed before: parsed whatever their names (mcp-items.ts's own parse), the provider called.
  it("with such a name are a 400 naming the arguments, as a function call's are", async () => {
    const endpoint = endpoints["responses"]!;
    const mcpEnv = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", OPENAI_SERVER_TOOLS: "mcp" });
    const request = { id: "mcpr_1", server_label: "links", name: "shorten" };
    const body = {
      model: "openai-responses/gpt-5-mini",
      input: [
        { role: "user", content: "Shorten it." },
        { type: "mcp_approval_request", ...request, arguments: JSON.stringify({ [LONG[0]!]: 1, [LONG[1]!]: 2 }) },
        { type: "mcp_approval_response", approval_request_id: "mcpr_1", approve: true },
      ],
    };
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const response = await worker(upstream).call(
      new Request(`http://localhost:8787${endpoint.path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify(body),
      }),
      mcpEnv,
    );
    expect(response.status).toBe(400);
    expect((await endpoint.expectError(response)).field).toBe("input[1].arguments");
    expect(upstream.requests).toEqual([]);
  });
});

describe("longMemberName", () => {
  const pad = (text: string) => text + " ".repeat(1024 * 1024);

  it("finds a name past 16,383 characters, not a value that long", () => {
    expect(longMemberName(pad(`{"a":"${"v".repeat(16_384)}"}`))).toBeUndefined();
    expect(longMemberName(pad(`{"a":1,"${"k".repeat(16_384)}" \n\t:1}`))).toBe(7);
    expect(longMemberName(pad(`{"a":["${"v".repeat(20_000)}",{"b":1}]}`))).toBeUndefined();
  });

  it("reads a name's escapes: its length is that of the text it stands for", () => {
    // 16,383 characters written as 16,382 and one `\u0041`: not too long.
    expect(longMemberName(pad(`{"${"k".repeat(16_382)}\\u0041":1}`))).toBeUndefined();
    expect(longMemberName(pad(`{"${"k".repeat(16_383)}\\n":1}`))).toBe(1);
    // An escaped quote does not end the name; a backslash escaped before a quote does.
    expect(longMemberName(pad(`{"x\\":${"k".repeat(16_384)}":1}`))).toBe(1);
    expect(longMemberName(pad(`{"x\\\\":"${"k".repeat(16_384)}"}`))).toBeUndefined();
  });

  it("scans a text of any size that can hold such a name", () => {
    expect(longMemberName(`{"${"k".repeat(16_384)}":1}`)).toBe(1);
    expect(longMemberName(`{"${"k".repeat(16_383)}":1}`)).toBeUndefined();
    expect(longMemberName('{"a":1}')).toBeUndefined();
  });
});

describe("a sealed reasoning part (a client's to send back, base64 of JSON text)", () => {
  it("with such a name is no seal of ours: never parsed", () => {
    const part = { type: "block" as const, block: { type: "compaction_trigger", note: "kept" } };
    expect(unsealPart(sealPart(part))).toEqual(part);
    // Failed before: parsed, and the part given back with its name.
    const long = { type: "block" as const, block: { type: "compaction_trigger", [LONG[0]!]: 1 } };
    expect(unsealPart(sealPart(long))).toBeUndefined();
  });
});

describe("an upstream's error body with such names", () => {
  const body = JSON.stringify({ __type: "ThrottlingException", [name("a")]: 1, [name("b")]: 2 });

  // Failed before: both read the body with JSON.parse, names and all.
  it("is never parsed: Bedrock's refusal type and a limit's codes read it as text", async () => {
    expect(await parsedLongNames(() => awsErrorType(null, body))).toBe(0);
    expect(awsErrorType(null, body)).toBeUndefined();
    const response = new Response(body, { status: 429, headers: { "x-amzn-errortype": "ThrottlingException" } });
    let refusal: HttpError | undefined;
    expect(await parsedLongNames(() => (refusal = limitRefusal(response, body)))).toBe(0);
    expect(refusal?.status).toBe(429);
  });
});
