// The next turns the library builds, checked against each provider's own SDK types (issue 34):
// for every provider (Anthropic's and OpenAI's are also typed case by case in their case files),
// every recording (../shared/fixtures, other projects' recordings, the streams built from the docs
// in test/recordings/) and the feature streams shared by the case files go through
// streamToolCalls; the finish's `assistantMessage` (in the stream's order, and without it, as
// runToolLoop sends it), `toolResultMessages` and the request kit's body of the next request (what
// the Worker sends its upstream) are written into generated .ts files as typed literals
// (`const x: Content = {...}`: a literal gets excess-property checks), which TypeScript checks with
// the SDKs of the on-demand set `sdk-clients` and the dev dependencies (`@anthropic-ai/sdk`,
// `openai`, `ollama`). Any diagnostic fails the case and is printed with the recording it came
// from. Where the library sends a field an SDK does not type, the generated file adds it, saying why.
// The same run checks the shapes sdk-chunks.test.ts states for the SDKs it imports on demand
// (test/node/on-demand-sdks.ts) against those SDKs' own types.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { ensureOnDemand } from "../../scripts/on-demand.mjs";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  ToolCallStreamError,
  toolResultMessages,
  type RequestMessage,
  type ToolCallEvent,
} from "../../src/index.ts";
import { documentCitedTurn } from "../providers/bedrock/citations-recordings.ts";
import { serverToolTurn } from "../providers/bedrock/server-tools-recordings.ts";
import { imageTurn, repeatedName } from "../providers/gemini/doc-shapes-recordings.ts";
import { grounded } from "../providers/gemini/grounding-recordings.ts";
import { combined } from "../providers/gemini/server-parts-recordings.ts";
import { refused } from "../providers/openai-chat/refusal-recordings.ts";
import { responsesCited, responsesCitedThenRefused } from "../providers/openai-responses/citations-recordings.ts";
import { responsesRefused } from "../providers/openai-responses/refusal-recordings.ts";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

type Finish = Extract<ToolCallEvent, { type: "finish" }>;
type Checked =
  | "anthropic"
  | "openai"
  | "openai-responses"
  | "gemini"
  | "gemini-interactions"
  | "bedrock"
  | "cohere"
  | "ollama";

/**
 * Each provider's SDK types, as the generated file declares them: the assistant turn, the results,
 * and the request body (without what goes in the URL). Where the library sends a field the SDK's
 * types lack (a server's own field, or one the API returns that the SDK does not type yet), the
 * type adds it, and says why.
 */
const TYPES: Record<Checked, { preamble: string; assistant: string; results: string; body: string }> = {
  anthropic: {
    // The beta types: the turn sends back blocks only they have (compaction, fallback, mcp_tool_use, ...).
    preamble: `import type { BetaMessageParam, MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/beta/messages/messages";
// The API's code execution results carry \`abort_reason\` (vercel/ai's recording of 2026-03-03), which SDK 1.12 does not type.
declare module "@anthropic-ai/sdk/resources/beta/messages/messages" {
  interface BetaCodeExecutionResultBlockParam { abort_reason?: string | null }
}`,
    assistant: "BetaMessageParam",
    results: "BetaMessageParam[]",
    body: "MessageCreateParamsStreaming",
  },
  openai: {
    preamble: `import type { ChatCompletionAssistantMessageParam, ChatCompletionCreateParamsStreaming, ChatCompletionMessageParam, ChatCompletionMessageToolCall } from "openai/resources/chat/completions/completions";
// A thinking model's reasoning in the field it streamed in (DeepSeek's, Kimi's, GLM's, Qwen's reasoning_content,
// Groq's and OpenRouter's reasoning, MiniMax's reasoning_details), and the extra_content of a call from
// Gemini's OpenAI compatibility (its thought signature): fields of those servers, not of openai-node.
type Assistant = Omit<ChatCompletionAssistantMessageParam, "tool_calls"> & { reasoning_content?: string; reasoning?: string; reasoning_details?: unknown[]; tool_calls?: (ChatCompletionMessageToolCall & { extra_content?: unknown })[] };
type ChatMessage = Exclude<ChatCompletionMessageParam, ChatCompletionAssistantMessageParam> | Assistant;
type ChatBody = Omit<ChatCompletionCreateParamsStreaming, "messages"> & { messages: ChatMessage[] };`,
    assistant: "ChatMessage",
    results: "ChatMessage[]",
    body: "ChatBody",
  },
  "openai-responses": {
    preamble: `import type { ResponseCreateParamsStreaming, ResponseInputItem } from "openai/resources/responses/responses";
// An image generation item goes back as it came, with the fields OpenAI's streaming reference shows on the
// output item (revised_prompt, size, quality, background, output_format), which openai-node 6.49 does not type.
declare module "openai/resources/responses/responses" {
  namespace ResponseInputItem {
    interface ImageGenerationCall { revised_prompt?: string; size?: string; quality?: string; background?: string; output_format?: string }
  }
}`,
    assistant: "ResponseInputItem",
    results: "ResponseInputItem[]",
    body: "ResponseCreateParamsStreaming",
  },
  gemini: {
    preamble: `import type { Content, GenerateContentConfig } from "@google/genai";
// The REST body of streamGenerateContent: the SDK's parameters put tools and the system instruction in \`config\`.
type GeminiBody = Wire<{ contents: Content[] } & Pick<GenerateContentConfig, "tools" | "toolConfig" | "systemInstruction"> & { generationConfig?: GenerateContentConfig }>;`,
    assistant: "Wire<Content>",
    results: "Wire<Content>[]",
    body: "GeminiBody",
  },
  "gemini-interactions": {
    preamble: `import type { Interactions } from "@google/genai";
// A function_call step carries the signature it streamed with (test/recordings/gemini-interactions/README.md:
// SDK 3.3.0's FunctionCallStep has none, its built-in tools' steps have one).
type Step = Exclude<Interactions.Step, { type: "function_call" }> | (Interactions.FunctionCallStep & { signature?: string });
type InteractionsBody = Omit<Interactions.CreateModelInteractionParamsStreaming, "input"> & { input: Step[] | string };`,
    assistant: "Step[]",
    results: "Step[]",
    body: "InteractionsBody",
  },
  bedrock: {
    preamble: `import type { ConverseStreamCommandInput, Message } from "@aws-sdk/client-bedrock-runtime";
type BedrockBody = Wire<Omit<ConverseStreamCommandInput, "modelId">>;`,
    assistant: "Wire<Message>",
    results: "Wire<Message>[]",
    body: "BedrockBody",
  },
  cohere: {
    // The SDK's own types are camelCase; its serialization schemas' Raw types are the wire's.
    preamble: `import type * as CohereWire from "../node_modules/cohere-ai/serialization/index.js";
// The SDK's streaming call adds \`stream: true\` itself.
type CohereBody = CohereWire.V2ChatStreamRequest.Raw & { stream: true };`,
    assistant: "CohereWire.ChatMessageV2.Raw",
    results: "CohereWire.ChatMessageV2.Raw[]",
    body: "CohereBody",
  },
  ollama: {
    preamble: `import type { ChatRequest, Message, ToolCall } from "ollama";
// Ollama's server takes a call's id and the result's \`tool_call_id\` (api/types.go), which ollama-js 0.6.4 does not type yet.
type OllamaMessage = Omit<Message, "tool_calls"> & { tool_calls?: (ToolCall & { id?: string })[]; tool_call_id?: string };
type OllamaBody = Omit<ChatRequest, "messages"> & { messages: OllamaMessage[] };`,
    assistant: "OllamaMessage",
    results: "OllamaMessage[]",
    body: "OllamaBody",
  },
};

/**
 * The JSON an SDK sends for its types: its blobs (Uint8Array: Bedrock's redactedContent, image
 * bytes) are base64 strings, its string enums (Gemini's Language, Outcome, ToolType) their values.
 */
const WIRE = `type Wire<T> = T extends Uint8Array ? string : T extends string ? \`\${T}\` : T extends readonly (infer U)[] ? Wire<U>[] : T extends object ? { [K in keyof T]: Wire<T[K]> } : T;`;

const MODELS: Record<Checked, string> = {
  anthropic: "claude-sonnet-4-5",
  openai: "gpt-4.1",
  "openai-responses": "gpt-5",
  gemini: "gemini-3-pro-preview",
  "gemini-interactions": "gemini-3-pro-preview",
  bedrock: "anthropic.claude-sonnet-4-5",
  cohere: "command-a-03-2025",
  ollama: "qwen3",
};

/** One stream of a checked provider: where it comes from, and its bodies. */
interface Source {
  name: string;
  provider: Checked;
  bodies: Uint8Array<ArrayBuffer>[];
}

const checked = (provider: string | undefined): provider is Checked => provider !== undefined && provider in TYPES;

/** An Ollama /api/chat stream built from its documented NDJSON shape (so Ollama has a turn without ../shared). */
const OLLAMA_TURN = [
  { message: { role: "assistant", content: "", thinking: "Two cities." }, done: false },
  { message: { role: "assistant", content: "Checking." }, done: false },
  {
    message: {
      role: "assistant",
      content: "",
      tool_calls: [
        { id: "call_1", function: { name: "weather", arguments: { city: "Oslo" } } },
        { function: { name: "weather", arguments: { city: "Lima" } } },
      ],
    },
    done: false,
  },
  { message: { role: "assistant", content: "" }, done: true, done_reason: "stop", eval_count: 7 },
]
  .map((line) => `${JSON.stringify({ model: "qwen3", created_at: "2026-01-01T00:00:00Z", ...line })}\n`)
  .join("");

/** The recordings, other projects' recordings, and the feature streams of the case files. */
function sources(): Source[] {
  const out: Source[] = [];
  for (const f of allFixtures) {
    const provider = supportedProvider(f);
    if (checked(provider)) out.push({ name: `${f.provider}/${f.name}`, provider, bodies: [f.body] });
  }
  for (const f of externalFixtures)
    if (checked(f.provider))
      out.push({ name: `${f.source}/${f.provider}/${f.name}`, provider: f.provider, bodies: externalBodies(f) });
  out.push({ name: "case: bedrock server tool with its result", provider: "bedrock", bodies: [serverToolTurn] });
  out.push({ name: "case: bedrock cited text (citationsContent)", provider: "bedrock", bodies: [documentCitedTurn] });
  out.push({
    name: "case: gemini server tool and code execution parts",
    provider: "gemini",
    bodies: [bytes(combined)],
  });
  out.push({ name: "case: gemini generated images with signatures", provider: "gemini", bodies: [bytes(imageTurn)] });
  out.push({ name: "case: gemini grounded answer with citations", provider: "gemini", bodies: [bytes(grounded)] });
  out.push({
    name: "case: vertex streamed arguments that repeat the name",
    provider: "gemini",
    bodies: [bytes(repeatedName)],
  });
  out.push({ name: "case: openai chat refusal", provider: "openai", bodies: [bytes(refused)] });
  out.push({ name: "case: openai responses refusal", provider: "openai-responses", bodies: [bytes(responsesRefused)] });
  out.push({
    name: "case: openai responses annotated output_text",
    provider: "openai-responses",
    bodies: [bytes(responsesCited())],
  });
  for (const twice of [false, true])
    out.push({
      name: `case: openai responses message item with an annotated output_text and ${twice ? "another" : "a refusal"}`,
      provider: "openai-responses",
      bodies: [bytes(responsesCitedThenRefused(twice))],
    });
  out.push({ name: "case: ollama thinking, text and two calls", provider: "ollama", bodies: [bytes(OLLAMA_TURN)] });
  return out;
}

/** The last body's finish. */
async function finishOf(source: Source): Promise<Finish | undefined> {
  let finish: Finish | undefined;
  for (const body of source.bodies) {
    const events = await collect(streamToolCalls(fromChunks([body]), { provider: source.provider }));
    for (const event of events) if (event.type === "finish") finish = event;
  }
  return finish;
}

/** What each call returned: an object, a string, an error, in turn. */
const resultsOf = (finish: Finish) =>
  finish.toolCalls
    .filter((call) => !call.providerExecuted)
    .map((call, i) => ({ call, output: i % 3 === 0 ? { ok: true, n: i } : `result ${i}`, isError: i % 3 === 2 }));

/** The next request as the Worker's upstream gets it: the conversation, the finish's turn, its results. */
function nextRequest(provider: Checked, finish: Finish): Record<string, unknown> | undefined {
  const results = resultsOf(finish);
  // The turn's calls as they are, those the provider ran among them (each kit sends them as the provider's own, or not at all).
  const { text: content, toolCalls, reasoningParts, reasoning, order } = finish;
  const messages: RequestMessage[] = [
    { role: "system", content: "Be brief." },
    { role: "user", content: "Go on." },
    { role: "assistant", content, toolCalls, reasoningParts, reasoning, order },
    ...results.map(
      (r): RequestMessage => ({
        role: "tool",
        toolCallId: r.call.id ?? undefined,
        name: r.call.name,
        content: typeof r.output === "string" ? r.output : JSON.stringify(r.output),
        isError: r.isError,
      }),
    ),
  ];
  if (results.length === 0) messages.push({ role: "user", content: "Thanks." });
  const names = [...new Set(finish.toolCalls.map((call) => call.name))];
  const tools = names.map((name) => ({ name, parameters: { type: "object" }, jsonSchema: true }));
  try {
    return providerKit(provider).requestBody({ model: MODELS[provider], messages, tools, maxTokens: 1024 });
  } catch (error) {
    // A turn the kit refuses to send, with the field that says why (a call without the id its provider needs).
    if (error instanceof ToolCallStreamError && error.code === "invalid-request") return undefined;
    throw error;
  }
}

/** The typed literals of one turn: its next turn (in order, and without the order), its results, the next request's body. */
function literals(index: number, source: Source, finish: Finish): string {
  const types = TYPES[source.provider];
  const assistant = assistantMessage(source.provider, finish);
  const unordered = assistantMessage(source.provider, { ...finish, order: undefined });
  const assistantType = Array.isArray(assistant) ? types.results : types.assistant;
  const body = nextRequest(source.provider, finish);
  return [
    `// ${JSON.stringify(source.name)}`,
    `export const t${index}_assistant: ${assistantType} = ${JSON.stringify(assistant, null, 1)};`,
    `export const t${index}_unordered: ${assistantType} = ${JSON.stringify(unordered, null, 1)};`,
    `export const t${index}_results: ${types.results} = ${JSON.stringify(toolResultMessages(source.provider, resultsOf(finish)), null, 1)};`,
    body === undefined ? "" : `export const t${index}_body: ${types.body} = ${JSON.stringify(body, null, 1)};`,
    "",
  ].join("\n");
}

const root = resolve(import.meta.dirname, "../..");
/** The SDKs' shapes that sdk-chunks.test.ts states to onDemandImport, each against its SDK's own module type. */
const SHAPES = `import type * as bedrock from "@aws-sdk/client-bedrock-runtime";
import type * as genai from "@google/genai";
import type * as smithy from "@smithy/node-http-handler";
import type * as cohere from "cohere-ai";
import type { BedrockSdk, CohereSdk, GenAISdk, SmithyHttp } from ${JSON.stringify(join(root, "test/node/on-demand-sdks.ts"))};
type Fits<Sdk extends Shape, Shape> = [Sdk, Shape];
export type Shapes = [
  Fits<typeof bedrock, BedrockSdk>,
  Fits<typeof genai, GenAISdk>,
  Fits<typeof smithy, SmithyHttp>,
  Fits<typeof cohere, CohereSdk>,
];
`;
let folder: string | undefined;
// KEEP_TYPES=1 keeps the generated files, to read a diagnostic in its place.
afterAll(() => {
  if (folder && !process.env["KEEP_TYPES"]) rmSync(folder, { recursive: true, force: true });
});

describe("next turns against the providers' SDK types", () => {
  it("TypeScript accepts every next turn, result and next request body with the SDKs' types", async () => {
    const modules = await ensureOnDemand("sdk-clients");
    // In the set's folder, so that the SDKs resolve from its node_modules (and ollama from the repository's).
    folder = mkdtempSync(join(dirname(modules), "next-turn-types-"));
    const all = sources();
    const names: { line: number; name: string }[] = [];
    const chunks: Record<Checked, string[]> = {
      anthropic: [],
      openai: [],
      "openai-responses": [],
      gemini: [],
      "gemini-interactions": [],
      bedrock: [],
      cohere: [],
      ollama: [],
    };
    let turns = 0;
    for (const [i, source] of all.entries()) {
      const finish = await finishOf(source);
      if (!finish) continue;
      chunks[source.provider].push(literals(i, source, finish));
      turns++;
    }
    const files: string[] = [];
    for (const provider of Object.keys(TYPES) as Checked[]) {
      const file = `${provider}.ts`;
      const text = `${TYPES[provider].preamble}\n${WIRE}\n\n${chunks[provider].join("\n")}`;
      writeFileSync(join(folder, file), text);
      text.split("\n").forEach((line, n) => {
        if (line.startsWith('// "')) names.push({ line: n + 1, name: `${file}: ${JSON.parse(line.slice(3))}` });
      });
      files.push(file);
    }
    writeFileSync(join(folder, "sdk-shapes.ts"), SHAPES);
    files.push("sdk-shapes.ts");
    writeFileSync(
      join(folder, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          target: "ES2022",
          module: "ESNext",
          moduleResolution: "Bundler",
          lib: ["ES2022", "DOM"],
          types: [],
          allowImportingTsExtensions: true,
        },
        files,
      }),
    );
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    const output = await promisify(execFile)(process.execPath, [tsc, "-p", join(folder, "tsconfig.json")], {
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      () => "",
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    // Each diagnostic with the recording whose turn it is in.
    const report = output
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => {
        const at = /^(?:.*[\\/])?([\w-]+\.ts)\((\d+),/.exec(line);
        const owner = at
          ? names.filter((n) => n.name.startsWith(`${at[1]}:`) && n.line <= Number(at[2])).at(-1)
          : undefined;
        return owner ? `${line}\n    in ${owner.name}` : line;
      })
      .join("\n");
    expect(report, `tsc over ${turns} turns in ${folder}`).toBe("");
    expect(turns).toBeGreaterThan(20);
    // Every provider has turns to check, even with ../shared absent (the repository's own streams).
    expect(Object.entries(chunks).filter(([, checked]) => checked.length === 0)).toEqual([]);
  }, 300_000);
});
