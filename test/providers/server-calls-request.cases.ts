// Calls the provider ran itself (`providerExecuted`: Anthropic's `server_tool_use` and `mcp_tool_use`,
// OpenAI Responses' `web_search_call`, `code_interpreter_call`, `mcp_call`, hosted `shell_call`, a
// server tool search, Bedrock Nova's `server_tool_use`, Gemini Interactions' built-in tool steps),
// handed back as `finish.toolCalls` lists them, to each provider's request kit (`requestBody`, what a
// server sends its upstream), to `assistantMessage` and to `toolResultMessages`, with a result for
// every call as a caller that runs `finish.toolCalls` whole would give. A server call goes back as
// the provider's own shape (its block, item or step, with its result) or not at all: never as a
// call of the client's (`tool_use`, `function_call`, `toolUse`, `functionCall`, `function_call`
// step, a Chat `tool_calls` entry), which the provider would wait to see answered (Anthropic: "Each
// `tool_use` block must have a corresponding `tool_result` block in the next message"), and never
// with a result of the client's. Before, every kit sent such a call as the client's.
//
// Provenance: the recordings of test/recordings/ and other projects' (../shared/external-fixtures)
// whose turns hold server calls, the hand-built Bedrock and OpenAI streams of the case files, and a
// turn built here with a server call of no provider's shape (for the providers without server calls).
import {
  assistantMessage,
  providerKit,
  runToolLoop,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type Provider,
  type RequestMessage,
  type ToolCall,
} from "../../src/index.ts";
import { allFixtures } from "../support/fixtures.ts";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";
import { serverToolTurn } from "./bedrock/server-tools-recordings.ts";
import { mcpStream } from "./openai-responses/built-in-calls-recordings.ts";

type Entry = Record<string, unknown>;
interface Source {
  name: string;
  provider: Provider;
  bodies: Uint8Array<ArrayBuffer>[];
  shared: boolean;
}

const PROVIDERS: readonly Provider[] = [
  "anthropic",
  "openai",
  "openai-responses",
  "gemini",
  "gemini-interactions",
  "bedrock",
  "cohere",
  "ollama",
];

/** The streams of test/recordings/ (built from the docs), which allFixtures holds after ../shared's. */
const DOCUMENTED = /^(gemini-interactions\/|openai-responses\/mcp-approval-)/;

function sources(): Source[] {
  const out: Source[] = [];
  for (const f of allFixtures) {
    const provider = supportedProvider(f);
    const name = `${f.provider}/${f.name}`;
    // The recordings of ../shared/fixtures are there only with it; test/recordings/' own always.
    if (provider) out.push({ name, provider, bodies: [f.body], shared: !DOCUMENTED.test(name) });
  }
  for (const f of externalFixtures)
    out.push({
      name: `${f.source}/${f.provider}/${f.name}`,
      provider: f.provider as Provider,
      bodies: externalBodies(f),
      shared: !f.inRepo,
    });
  out.push({ name: "case: bedrock server tool", provider: "bedrock", bodies: [serverToolTurn], shared: false });
  out.push({
    name: "case: openai-responses mcp_call",
    provider: "openai-responses",
    bodies: [bytes(mcpStream)],
    shared: false,
  });
  return out;
}

async function finishOf(source: Source): Promise<FinishEvent | undefined> {
  let finish: FinishEvent | undefined;
  for (const body of source.bodies)
    for (const event of await collect(streamToolCalls(fromChunks([body]), { provider: source.provider })))
      if (event.type === "finish") finish = event;
  return finish;
}

const list = (value: unknown): Entry[] =>
  Array.isArray(value) ? value.filter((v): v is Entry => typeof v === "object" && v !== null) : [];
const str = (value: unknown): string[] => (typeof value === "string" ? [value] : []);

/**
 * The ids (a Gemini or Ollama call's name where it has none) that a conversation's entries give
 * as a call of the client's or as a result of the client's: what the provider waits to see answered.
 */
function clientIds(provider: Provider, entries: readonly Entry[]): string[] {
  return entries.flatMap((entry): string[] => {
    switch (provider) {
      case "anthropic":
        return list(entry["content"]).flatMap((b) =>
          b["type"] === "tool_use" ? str(b["id"]) : b["type"] === "tool_result" ? str(b["tool_use_id"]) : [],
        );
      case "bedrock":
        return list(entry["content"]).flatMap((b) => {
          const use = b["toolUse"] as Entry | undefined;
          const result = b["toolResult"] as Entry | undefined;
          if (use && use["type"] !== "server_tool_use") return str(use["toolUseId"]);
          return result && entry["role"] === "user" ? str(result["toolUseId"]) : [];
        });
      case "gemini":
        return list(entry["parts"]).flatMap((p) => {
          const call = (p["functionCall"] ?? p["functionResponse"]) as Entry | undefined;
          return call ? str(call["id"] ?? call["name"]) : [];
        });
      case "openai-responses":
        return /^(function_call|custom_tool_call)(_output)?$/.test(String(entry["type"])) ? str(entry["call_id"]) : [];
      case "gemini-interactions":
        if (entry["type"] === "function_call") return str(entry["id"]);
        return entry["type"] === "function_result" ? str(entry["call_id"]) : [];
      default:
        return [
          ...list(entry["tool_calls"]).flatMap((c) => str(c["id"] ?? (c["function"] as Entry | undefined)?.["name"])),
          ...(entry["role"] === "tool" ? str(entry["tool_call_id"] ?? entry["tool_name"]) : []),
        ];
    }
  });
}

const serverIds = (calls: readonly ToolCall[]): string[] =>
  calls.flatMap((call) => (call.providerExecuted ? [call.id ?? call.name] : []));

/** A result for every call of the turn, the provider's own included, as a caller that runs `finish.toolCalls` whole gives. */
const everyResult = (finish: FinishEvent) => finish.toolCalls.map((call) => ({ call, output: `ran ${call.name}` }));

/** The next request's conversation as the request kit writes it: the finish's turn as it is, a result for every call. */
function kitEntries(provider: Provider, finish: FinishEvent): Entry[] {
  const { text: content, toolCalls, reasoningParts, reasoning, order } = finish;
  const messages: RequestMessage[] = [
    { role: "user", content: "Go on." },
    { role: "assistant", content, toolCalls, reasoningParts, reasoning, order },
    ...toolCalls.map(
      (call): RequestMessage => ({
        role: "tool",
        toolCallId: call.id ?? undefined,
        name: call.name,
        content: `ran ${call.name}`,
      }),
    ),
    { role: "user", content: "Thanks." },
  ];
  const kit = providerKit(provider);
  const tools = [...new Set(toolCalls.map((call) => call.name))].map((name) => ({
    name,
    parameters: { type: "object" },
  }));
  const body = kit.requestBody({ model: "m", messages, tools });
  return list(body[kit.conversationField]);
}

/** The kit's assistant turn (the entries of its first turn of the model's), for the providers whose turn is one message. */
const kitTurn = (provider: Provider, entries: readonly Entry[]): Entry | undefined =>
  entries.find((entry) => entry["role"] === (provider === "gemini" ? "model" : "assistant"));

/** Checks one turn: no server call goes back as the client's, in the kit's body, the next turn or the results. */
function checkTurn(name: string, provider: Provider, finish: FinishEvent): void {
  const ids = serverIds(finish.toolCalls);
  const turn = assistantMessage(provider, finish);
  const sent = {
    requestBody: clientIds(provider, kitEntries(provider, finish)),
    assistantMessage: clientIds(provider, Array.isArray(turn) ? turn : [turn]),
    toolResultMessages: clientIds(provider, toolResultMessages(provider, everyResult(finish))),
  };
  for (const [where, given] of Object.entries(sent)) {
    const wrong = given.filter((id) => ids.includes(id));
    assertEquals(wrong, [], `${name}: ${where} gives the server calls ${wrong.join(", ")} as the client's`);
  }
}

group("server calls in the next request (providerExecuted)", (test) => {
  for (const shared of [false, true])
    test(`every ${shared ? "recording of ../shared" : "recording of this repository"} with a server call: each kit, assistantMessage and toolResultMessages send it as the provider's own or not at all`, async () => {
      const seen = new Set<Provider>();
      for (const source of sources()) {
        if (source.shared !== shared) continue;
        const finish = await finishOf(source);
        if (!finish || serverIds(finish.toolCalls).length === 0) continue;
        seen.add(source.provider);
        checkTurn(source.name, source.provider, finish);
      }
      // The recordings with server calls: Anthropic's, OpenAI Responses', Bedrock's, Gemini Interactions'.
      if (!shared) assertEquals([...seen].sort(), ["anthropic", "bedrock", "gemini-interactions", "openai-responses"]);
    }).needs(...(shared ? (["recordings", "external-fixtures"] as const) : []));

  // A server call of no provider's shape beside a client's call: every provider leaves it out.
  const turn: FinishEvent = {
    type: "finish",
    reason: "tool-calls",
    rawReason: "tool_use",
    text: "Looking.",
    reasoning: "",
    toolCalls: [
      {
        index: 0,
        id: "srv_1",
        name: "web_search",
        arguments: { q: "tides" },
        rawArguments: '{"q":"tides"}',
        providerExecuted: true,
      },
      {
        index: 1,
        id: "call_2",
        name: "get_weather",
        arguments: { city: "Brest" },
        rawArguments: '{"city":"Brest"}',
      },
    ],
    invalidToolCalls: [],
  };
  for (const provider of PROVIDERS)
    test(`${provider}: a server call of no provider's shape is left out, and so is its result; the client's call goes back`, () => {
      checkTurn(provider, provider, turn);
      const entries = kitEntries(provider, turn);
      const own = clientIds(provider, entries);
      assert(own.includes("call_2"), `${provider}: ${JSON.stringify(entries)}`);
    });

  test("anthropic: the kit sends a turn with server calls back as assistantMessage does", async () => {
    let checked = 0;
    for (const source of sources()) {
      if (source.provider !== "anthropic" || source.shared) continue;
      const finish = await finishOf(source);
      if (!finish || serverIds(finish.toolCalls).length === 0) continue;
      const expected = assistantMessage("anthropic", finish);
      assertEquals(
        kitTurn("anthropic", kitEntries("anthropic", finish))?.["content"],
        (expected as Entry)["content"],
        source.name,
      );
      checked++;
    }
    assert(checked >= 2, `only ${checked} turns`);
  });

  test("runToolLoop runs none of the calls the provider ran and answers none, with a tool of their name at hand", async () => {
    let loops = 0;
    for (const source of sources()) {
      // A loop's fake model answers with text (SSE or NDJSON); Bedrock's binary frames are checked above.
      if (source.shared || source.provider === "bedrock") continue;
      const finish = await finishOf(source);
      if (!finish || serverIds(finish.toolCalls).length === 0) continue;
      const ran: string[] = [];
      const tools = Object.fromEntries(
        finish.toolCalls.map((call) => [
          call.name,
          { run: (_: unknown, { call: { id } }: { call: { id: string | null } }) => (ran.push(String(id)), "done") },
        ]),
      );
      const model = replayModel(source.bodies.map((body) => new TextDecoder().decode(body)).slice(-1));
      const events = await collect(runToolLoop({ provider: source.provider, messages: [], tools, call: model.call }));
      const ids = serverIds(finish.toolCalls);
      assertEquals(
        ran.filter((id) => ids.includes(id)),
        [],
        `${source.name}: ran a server call`,
      );
      // What went back after the turn: the turn and the results of the calls the loop ran.
      const sent = events.flatMap((event) => (event.type === "step-finish" ? event.messages : [])) as Entry[];
      const wrong = clientIds(source.provider, sent).filter((id) => ids.includes(id));
      assertEquals(wrong, [], `${source.name}: sent the server calls as the client's`);
      loops++;
    }
    assert(loops >= 4, `only ${loops} turns`);
  });

  test("openai, cohere: a turn of server calls alone is no assistant message (an empty one is refused)", () => {
    const call = { id: "srv_1", name: "web_search", arguments: { q: "tides" }, providerExecuted: true } as const;
    const [asked, again] = [{ role: "user", content: "Tides?" } as const, { role: "user", content: "Again?" } as const];
    for (const [provider, model] of [
      ["openai", "gpt-4.1"],
      ["cohere", "command-a-03-2025"],
    ] as const) {
      const turn = { role: "assistant", content: "", toolCalls: [call] } as const;
      const result = { role: "tool", toolCallId: "srv_1", content: "high at 6" } as const;
      const messages = [asked, turn, result, again];
      assertEquals(
        providerKit(provider).requestBody({ model, messages, tools: [] })["messages"],
        [asked, again],
        provider,
      );
    }
  });
});
