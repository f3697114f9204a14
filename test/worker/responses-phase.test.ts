// OpenAI Responses' message `phase` through the Worker (`commentary` before calls, `final_answer`),
// which Codex sends on its assistant messages and gpt-5.3-codex and later models send and need back:
// a client's phase reaches an OpenAI Responses upstream (another provider has no such field); an
// OpenAI Responses upstream's phase (a recorded gpt-5.x turn: reasoning, a commentary message, a
// call) reaches openai-node in output_item.added / .done and the completed output, and a stored
// response gives it back to the upstream on the turn of its `previous_response_id`. Two upstream
// messages back to back (commentary, final_answer) reach the client as two message items.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { backToBackMessages, FINAL_TEXT, messagePhases } from "../support/message-phases.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import { FakeUpstream, responses } from "./support.ts";

const TEXT = "I’ll check the capital lookup tool for “PotatoLand.”";
const TOOLS: OpenAI.Responses.Tool[] = [
  { type: "function", name: "get_capital", parameters: { type: "object" }, strict: false },
];
const client = (provider: Provider, upstream: FakeUpstream, stored = false): OpenAI =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: stored ? { ...live(provider), RESPONSES: responses } : live(provider), upstream }),
    maxRetries: 0,
  });
/** An upstream that answers with the recorded gpt-5.x turn. */
const recorded = (chunks = [recording("openai-responses", "text-then-function-call").text]): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks,
    headers: { "content-type": "text/event-stream" },
  });
const assistantOf = (body: unknown): Record<string, unknown>[] =>
  ((body as { input: Record<string, unknown>[] }).input ?? []).filter((item) => item["role"] === "assistant");

describe("a Responses client's message phase", () => {
  /** Codex's turn: its commentary before a call, the call and its output. */
  const input: OpenAI.Responses.ResponseInput = [
    { role: "user", content: "Capital of PotatoLand?" },
    { type: "message", role: "assistant", content: TEXT, phase: "commentary" },
    { type: "function_call", call_id: "call_1", name: "get_capital", arguments: '{"country":"PotatoLand"}' },
    { type: "function_call_output", call_id: "call_1", output: "Spudville" },
  ];
  const through = async (provider: Provider): Promise<unknown> => {
    const upstream = scripted(provider, { text: "Spudville." });
    await client(provider, upstream).responses.create({ model: `${provider}/m`, input, tools: TOOLS, store: false });
    return upstream.requests[0]!.body;
  };

  it("reaches an OpenAI Responses upstream on that message", async () => {
    expect(assistantOf(await through("openai-responses"))).toEqual([
      { role: "assistant", content: TEXT, phase: "commentary" },
    ]);
  });

  it("is dropped for another provider, which has no such field", async () => {
    for (const provider of ["anthropic", "openai"] as Provider[]) {
      const body = await through(provider);
      expect(JSON.stringify(body)).toContain("PotatoLand");
      expect(JSON.stringify(body)).not.toContain("commentary");
    }
  });
});

describe.skipIf(!recordingsAvailable)("an OpenAI Responses upstream's message phase", () => {
  it("reaches openai-node in output_item.added, output_item.done and the completed output", async () => {
    const stream = await client("openai-responses", recorded()).responses.create({
      model: "openai-responses/gpt-5.5",
      input: "Capital of PotatoLand?",
      tools: TOOLS,
      stream: true,
      store: false,
    });
    const seen = await messagePhases(stream);
    expect(seen).toEqual([
      ["response.output_item.added", "commentary"],
      ["response.output_item.done", "commentary"],
      ["commentary"],
    ]);
  });

  it("is stored, and previous_response_id gives it back to the upstream", async () => {
    const upstream = recorded();
    const openai = client("openai-responses", upstream, true);
    const first = await openai.responses.create({
      model: "openai-responses/gpt-5.5",
      input: "Capital of PotatoLand?",
      tools: TOOLS,
    });
    expect(first.output.flatMap((item) => (item.type === "message" ? [item.phase] : []))).toEqual(["commentary"]);
    const call = first.output.find((item) => item.type === "function_call")!;
    upstream.answer = scripted("openai-responses", { text: "Spudville." }).answer;
    await openai.responses.create({
      model: "openai-responses/gpt-5.5",
      previous_response_id: first.id,
      input: [{ type: "function_call_output", call_id: call.call_id, output: "Spudville" }],
      tools: TOOLS,
    });
    expect(assistantOf(upstream.requests.at(-1)!.body)).toEqual([
      { role: "assistant", content: TEXT, phase: "commentary" },
    ]);
  });
});

describe.skipIf(!recordingsAvailable)("a phase OpenAI added after this Worker, in a stored response", () => {
  // The recorded turn with a phase value outside today's enum: the upstream's, not the client's.
  const upstream = () =>
    recorded([
      recording("openai-responses", "text-then-function-call").text.replaceAll(
        '"phase":"commentary"',
        '"phase":"preamble"',
      ),
    ]);
  const first = async (openai: OpenAI) => {
    const response = await openai.responses.create({
      model: "openai-responses/gpt-5.5",
      input: "Capital of PotatoLand?",
      tools: TOOLS,
    });
    expect(response.output.flatMap((item) => (item.type === "message" ? [item.phase] : []))).toEqual(["preamble"]);
    return response;
  };

  it("goes back to the upstream by item_reference as it came (not a 400 the client caused)", async () => {
    const fake = upstream();
    const openai = client("openai-responses", fake, true);
    const message = (await first(openai)).output.find((item) => item.type === "message")!;
    fake.answer = scripted("openai-responses", { text: "Spudville." }).answer;
    const input = [
      { type: "item_reference", id: message.id },
      { role: "user", content: "Go on." },
    ] as OpenAI.Responses.ResponseInput;
    await openai.responses.create({ model: "openai-responses/gpt-5.5", input, tools: TOOLS });
    expect(assistantOf(fake.requests.at(-1)!.body)).toEqual([{ role: "assistant", content: TEXT, phase: "preamble" }]);
  });

  it("goes back to the upstream by previous_response_id as it came", async () => {
    const fake = upstream();
    const openai = client("openai-responses", fake, true);
    const response = await first(openai);
    const call = response.output.find((item) => item.type === "function_call")!;
    fake.answer = scripted("openai-responses", { text: "Spudville." }).answer;
    const input = [{ type: "function_call_output", call_id: call.call_id, output: "Spudville" }] as const;
    await openai.responses.create({
      model: "openai-responses/gpt-5.5",
      previous_response_id: response.id,
      input: [...input],
      tools: TOOLS,
    });
    expect(assistantOf(fake.requests.at(-1)!.body)).toEqual([{ role: "assistant", content: TEXT, phase: "preamble" }]);
  });

  it("a client's own message with that phase is still refused at its path", async () => {
    const openai = client("openai-responses", upstream(), true);
    const input = [
      { role: "assistant", content: TEXT, phase: "preamble" },
      { role: "user", content: "Go on." },
    ];
    await expect(
      openai.responses.create({ model: "openai-responses/gpt-5.5", input: input as OpenAI.Responses.ResponseInput }),
    ).rejects.toMatchObject({ status: 400, param: "input[0].phase" });
  });
});

describe.skipIf(!recordingsAvailable)("two messages back to back from an OpenAI Responses upstream", () => {
  const sse = () => backToBackMessages(recording("openai-responses", "text-then-function-call").text);
  const request = {
    model: "openai-responses/gpt-5.5",
    input: "Capital of PotatoLand?",
    tools: TOOLS,
    store: false,
  } as const;

  it("reach openai-node as two message items, each with its phase and its text, however the upstream's reads fell", async () => {
    const text = sse();
    // Whole; an event a read; 7 characters a read (cutting events, JSON tokens and field names).
    for (const chunks of [[text], text.split(/(?<=\n\n)/), text.match(/.{1,7}/gs)!]) {
      const texts: string[] = [];
      const stream = await client("openai-responses", recorded(chunks)).responses.create({ ...request, stream: true });
      const seen = await messagePhases(
        (async function* () {
          for await (const event of stream) {
            if (event.type === "response.output_text.done") texts.push(event.text);
            yield event;
          }
        })(),
      );
      expect(seen).toEqual([
        ["response.output_item.added", "commentary"],
        ["response.output_item.done", "commentary"],
        ["response.output_item.added", "final_answer"],
        ["response.output_item.done", "final_answer"],
        ["commentary", "final_answer"],
      ]);
      expect(texts).toEqual([TEXT, FINAL_TEXT]);
    }
  });

  it("are two messages of the non-streaming response, each with its phase", async () => {
    const response = await client("openai-responses", recorded([sse()])).responses.create(request);
    expect(response.output.flatMap((item) => (item.type === "message" ? [[item.phase, item.content]] : []))).toEqual([
      ["commentary", [expect.objectContaining({ text: TEXT })]],
      ["final_answer", [expect.objectContaining({ text: FINAL_TEXT })]],
    ]);
  });
});
