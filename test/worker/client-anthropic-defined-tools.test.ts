// Anthropic's client tools of its own schema (`bash_20250124`, `text_editor_20250728`,
// `memory_20250818`: a `type` with a date, but run by the client, as the AI SDK's
// `anthropic.tools.bash_20250124` and agents built on @anthropic-ai/sdk send them) through
// `/v1/messages` with @anthropic-ai/sdk 1.17: every provider is sent them as function tools of the
// schema Anthropic documents, and the model's call reaches the client as its `tool_use`. They were
// dropped as server tools, so the model answered without the shell or the editor it was given.
// Computer use (`computer_20250124`), whose screen the model must be trained on, is a 400 naming
// the tool's type.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { type Provider, toolSchemaValidator } from "../../src/index.ts";
import { parseMessagesRequest } from "../../worker/protocols/anthropic-messages/request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import { type FakeUpstream, testEnv } from "./support.ts";

const sdk = (provider: Provider, upstream: FakeUpstream): Anthropic =>
  new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: live(provider), upstream }),
    maxRetries: 0,
  });
const ask = (tools: unknown[]) =>
  ({
    model: "m",
    max_tokens: 1024,
    messages: [{ role: "user" as const, content: "List the files." }],
    tools,
  }) as unknown as Anthropic.MessageCreateParamsNonStreaming;
/** An upstream of `provider` that answers with text, once sent `tools` through `/v1/messages`. */
const sentWith = async (provider: Provider, tools: unknown[]): Promise<FakeUpstream> => {
  const upstream = scripted(provider, { text: "Done." });
  await sdk(provider, upstream).messages.create({ ...ask(tools), model: `${provider}/m` });
  return upstream;
};
/** The tools `upstream` was sent, whatever its provider's form: their names and schemas. */
const sentTools = (upstream: FakeUpstream): { name: string; schema: Record<string, any> }[] => {
  const body = upstream.requests[0]!.body as Record<string, any>;
  const tools = (body["tools"] ?? body["toolConfig"]?.tools ?? []) as Record<string, any>[];
  return tools.flatMap((tool) =>
    tool["functionDeclarations"]
      ? tool["functionDeclarations"].map((f: Record<string, any>) => ({
          name: f["name"],
          schema: f["parametersJsonSchema"] ?? f["parameters"],
        }))
      : [
          {
            name: tool["name"] ?? tool["function"]?.name ?? tool["toolSpec"]?.name,
            schema:
              tool["input_schema"] ??
              tool["parameters"] ??
              tool["function"]?.parameters ??
              tool["toolSpec"]?.inputSchema?.json,
          },
        ],
  );
};

describe("/v1/messages: Anthropic's schema tools run by the client", () => {
  for (const provider of ["openai", "openai-responses", "gemini", "bedrock"] as Provider[])
    it(`${provider}: bash_20250124 is sent as the function tool bash, and its call reaches the client`, async () => {
      const upstream = scripted(provider, { calls: [{ name: "bash", arguments: { command: "ls" } }] });
      const message = await sdk(provider, upstream).messages.create({
        ...ask([{ type: "bash_20250124", name: "bash" }]),
        model: `${provider}/m`,
      });
      const [bash] = sentTools(upstream);
      expect(bash?.name).toBe("bash");
      expect(bash?.schema).toMatchObject({ type: "object", properties: { command: { type: "string" } } });
      expect(message.content.find((block) => block.type === "tool_use")).toMatchObject({
        name: "bash",
        input: { command: "ls" },
      });
    });

  it("the text editors and memory: their commands, as Anthropic documents them", async () => {
    const upstream = await sentWith("openai", [
      { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 10_000 },
      { type: "text_editor_20250124", name: "str_replace_editor" },
      { type: "memory_20250818", name: "memory" },
    ]);
    const sent = sentTools(upstream);
    expect(sent.map((tool) => [tool.name, tool.schema["properties"].command.enum])).toEqual([
      ["str_replace_based_edit_tool", ["view", "create", "str_replace", "insert"]],
      ["str_replace_editor", ["view", "create", "str_replace", "insert", "undo_edit"]],
      ["memory", ["view", "create", "str_replace", "insert", "delete", "rename"]],
    ]);
    expect(sent.every((tool) => tool.schema["required"].includes("command"))).toBe(true);
  });

  it("a later dated version stands for the newest one known, not a server tool dropped (review 76)", async () => {
    const upstream = await sentWith("openai", [
      { type: "bash_20261001", name: "bash" },
      { type: "text_editor_20261001", name: "str_replace_based_edit_tool" },
    ]);
    expect(sentTools(upstream).map((tool) => [tool.name, tool.schema["required"]])).toEqual([
      ["bash", ["command"]],
      ["str_replace_based_edit_tool", ["command", "path"]],
    ]);
  });

  it("a tool_choice naming bash forces it", async () => {
    const upstream = scripted("openai", { calls: [{ name: "bash", arguments: { command: "ls" } }] });
    await sdk("openai", upstream).messages.create({
      ...ask([{ type: "bash_20250124", name: "bash" }]),
      model: "openai/m",
      tool_choice: { type: "tool", name: "bash" },
    });
    expect((upstream.requests[0]!.body as Record<string, any>)["tool_choice"]).toEqual({
      type: "function",
      function: { name: "bash" },
    });
  });

  it("computer use is a 400 naming the tool's type; the provider is not called", async () => {
    const upstream = scripted("openai", { text: "Done." });
    const error = await sdk("openai", upstream)
      .messages.create({
        ...ask([{ type: "computer_20250124", name: "computer", display_width_px: 1024, display_height_px: 768 }]),
        model: "openai/m",
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain("tools[0].type");
    expect(upstream.requests).toEqual([]);
  });
});

// To Anthropic itself they go in their own form, `{type, name}` (the text editor's `max_characters`
// with it): the tool Claude was trained on, rather than a look-alike function (review 76, MEDIUM).
describe("/v1/messages: Anthropic's client-run tools to Anthropic in their own form", () => {
  const TOOLS = [
    { type: "bash_20250124", name: "bash" },
    { type: "text_editor_20250728", name: "str_replace_based_edit_tool", max_characters: 10_000 },
    { type: "memory_20250818", name: "memory" },
  ];
  const sentBody = (upstream: FakeUpstream) => upstream.requests[0]!.body as Record<string, any>;

  it("Anthropic is sent bash, the text editor and memory as their types, and the call comes back as tool_use", async () => {
    const upstream = scripted("anthropic", { calls: [{ name: "bash", arguments: { command: "ls" } }] });
    const message = await sdk("anthropic", upstream).messages.create({ ...ask(TOOLS), model: "anthropic/m" });
    expect(sentBody(upstream)["tools"]).toEqual(TOOLS);
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content.find((block) => block.type === "tool_use")).toMatchObject({
      name: "bash",
      input: { command: "ls" },
    });
  });

  it("OpenAI Chat is still sent them as function tools", async () => {
    const upstream = await sentWith("openai", TOOLS);
    expect(
      sentBody(upstream)["tools"].map((tool: Record<string, any>) => [tool["type"], tool["function"].name]),
    ).toEqual([
      ["function", "bash"],
      ["function", "str_replace_based_edit_tool"],
      ["function", "memory"],
    ]);
  });

  it("the parsed tools carry the marker and the documented schemas, which a validator of them applies, and the tool_choice holds", async () => {
    const { request } = parseMessagesRequest({ ...ask(TOOLS), model: "anthropic/m" }, providerNames, []);
    expect(request.tools.map((tool) => tool.anthropicTool)).toEqual([
      { type: "bash_20250124" },
      { type: "text_editor_20250728", maxCharacters: 10_000 },
      { type: "memory_20250818" },
    ]);
    // What the Worker checks a call's arguments with (early validation): the schema Anthropic documents.
    const check = toolSchemaValidator(request.tools);
    expect(check("bash", { command: "ls" })).toBeUndefined();
    expect(check("bash", { restart: "yes" })).toBeDefined();
    // A forced bash: a call of another tool is left out, and an answer of nothing but it fails.
    const upstream = scripted("anthropic", { calls: [{ name: "memory", arguments: { command: "view", path: "/" } }] });
    const error = await sdk("anthropic", upstream)
      .messages.create({ ...ask(TOOLS), model: "anthropic/m", tool_choice: { type: "tool", name: "bash" } })
      .catch((caught: unknown) => caught);
    expect(sentBody(upstream)["tool_choice"]).toEqual({ type: "tool", name: "bash" });
    expect(sentBody(upstream)["tools"][0]).toEqual({ type: "bash_20250124", name: "bash" });
    expect(error).toBeInstanceOf(Anthropic.APIError);
  });

  it("a 2024-10-22 version or another name than Anthropic's goes as a function; a later version as it came", async () => {
    const upstream = await sentWith("anthropic", [
      { type: "bash_20241022", name: "bash" },
      { type: "text_editor_20250728", name: "editor" },
      { type: "text_editor_20261001", name: "str_replace_based_edit_tool", max_characters: 500 },
    ]);
    const [bash, editor, later] = sentBody(upstream)["tools"];
    expect([bash.name, bash.input_schema.required]).toEqual(["bash", ["command"]]);
    expect([editor.name, editor.input_schema.required]).toEqual(["editor", ["command", "path"]]);
    expect(later).toEqual({ type: "text_editor_20261001", name: "str_replace_based_edit_tool", max_characters: 500 });
  });

  it("a max_characters that is no integer from 1 is a 400 naming it", async () => {
    const upstream = scripted("anthropic", { text: "Done." });
    const error = await sdk("anthropic", upstream)
      .messages.create({ ...ask([{ ...TOOLS[1], max_characters: 0 }]), model: "anthropic/m" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).message).toContain("tools[0].max_characters");
    expect(upstream.requests).toEqual([]);
  });

  it("offline, the scripted Anthropic reads the documented schema of a tool named by its type", async () => {
    const client = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: testEnv({ CLIENT_TOKEN: "t", REPLAY_DELAY_MS: "0" }) }),
      maxRetries: 0,
    });
    const message = await client.messages.create({
      ...ask(TOOLS),
      model: "anthropic/m",
      messages: [{ role: "user", content: "Use bash to run `ls -la`." }],
    });
    const call = message.content.find((block) => block.type === "tool_use");
    expect(call).toMatchObject({ name: "bash", input: { command: expect.any(String) } });
  });
});
