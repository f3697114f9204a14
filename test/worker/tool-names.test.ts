// The tool names of the agent protocols against each provider's rule (worker/upstream/tool-names.ts):
// a name that fits goes as it is; one that does not goes under a short name that fits, is the same
// on every turn, differs from every other name of the request and reads like the name; the
// provider's events come back with the client's names.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EncodableEvent } from "../../src/index.ts";
import type { StreamRequest } from "../../worker/request/stream-request.ts";
import { toolNameIn } from "../../worker/protocols/tool-names.ts";
import {
  clientNames,
  fitsRule,
  shortName,
  ToolNames,
  withProviderToolNames,
} from "../../worker/upstream/tool-names.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { collect, fromChunks } from "../support/streams.ts";

const rules = Object.entries(upstreamProviders).map(([provider, upstream]) => [provider, upstream.toolNames] as const);
const openai = upstreamProviders.openai.toolNames;
const cohere = upstreamProviders.cohere.toolNames;
const gemini = upstreamProviders.gemini.toolNames;
const MCP = "mcp__plugin_chrome-devtools-mcp_chrome-devtools__performance_analyze_insight";

describe("ToolNames", () => {
  it("keeps a name that fits the provider's rule, and shortens one of 76 characters to 64 with its head and tail", () => {
    const names = new ToolNames(["get_weather", MCP], openai);
    expect(names.toProvider("get_weather")).toBe("get_weather");
    const short = names.toProvider(MCP);
    expect(short).toMatch(/^mcp__plugin_chrome-d_[0-9a-f]{8}_tools__performance_analyze_insight$/);
    expect(short).toHaveLength(64);
    expect(names.toClient(short)).toBe(MCP);
    expect(names.toClient("get_weather")).toBe("get_weather");
    expect(names.toClient("a_name_never_sent")).toBe("a_name_never_sent");
  });

  it("gives a name the same short name in every request, whatever else it holds and in whatever order", () => {
    const other = `${"x".repeat(70)}_other`;
    const first = new ToolNames([MCP, "get_weather"], openai).toProvider(MCP);
    expect(new ToolNames(["lookup", other, MCP], openai).toProvider(MCP)).toBe(first);
    const a = new ToolNames([MCP, other], openai);
    const b = new ToolNames([other, MCP], openai);
    expect([a.toProvider(MCP), a.toProvider(other)]).toEqual([b.toProvider(MCP), b.toProvider(other)]);
  });

  it("two names with the same head and tail get different short names", () => {
    const one = `mcp__server__${"a".repeat(40)}_one_${"z".repeat(40)}`;
    const two = `mcp__server__${"a".repeat(40)}_two_${"z".repeat(40)}`;
    const names = new ToolNames([one, two], openai);
    expect(names.toProvider(one)).not.toBe(names.toProvider(two));
    expect(names.toProvider(one).slice(0, 20)).toBe(names.toProvider(two).slice(0, 20));
  });

  it("a short name that meets a name the client sent takes a second hash, and both map back", () => {
    const taken = shortName(MCP, openai);
    const names = new ToolNames([taken, MCP], openai);
    expect(names.toProvider(taken)).toBe(taken);
    expect(names.toProvider(MCP)).not.toBe(taken);
    expect(fitsRule(names.toProvider(MCP), openai)).toBe(true);
    expect(names.toClient(names.toProvider(MCP))).toBe(MCP);
  });

  it("Cohere: a dash becomes _ and a leading digit _, with the hash that keeps the name apart", () => {
    const names = new ToolNames(["mcp__my-server__search", "9lives", "plain_name"], cohere);
    expect(names.toProvider("mcp__my-server__search")).toMatch(/^mcp__my_server__search_[0-9a-f]{8}$/);
    expect(names.toProvider("9lives")).toMatch(/^_lives_[0-9a-f]{8}$/);
    expect(names.toProvider("plain_name")).toBe("plain_name");
    expect(names.renamed).toBe(true);
    expect(new ToolNames(["plain_name"], cohere).renamed).toBe(false);
  });

  it("Gemini keeps dashes but not a leading dash or digit", () => {
    expect(new ToolNames(["get-weather"], gemini).toProvider("get-weather")).toBe("get-weather");
    expect(new ToolNames(["-x"], gemini).toProvider("-x")).toMatch(/^_x_[0-9a-f]{8}$/);
  });

  it("every name a Messages client may send becomes, for every provider, a name its rule takes, distinct and mapped back (seeded)", () => {
    const anthropicName = fc.stringMatching(/^[A-Za-z0-9_-]{1,128}$/);
    fc.assert(
      fc.property(fc.uniqueArray(anthropicName, { minLength: 1, maxLength: 8 }), (list) => {
        for (const [, rule] of rules) {
          const names = new ToolNames(list, rule);
          const sent = list.map((name) => names.toProvider(name));
          for (const name of sent) expect(fitsRule(name, rule)).toBe(true);
          expect(new Set(sent).size).toBe(list.length);
          expect(sent.map((name) => names.toClient(name))).toEqual(list);
        }
      }),
      { seed: 25, numRuns: 200 },
    );
  });
});

describe("the names of a request and of its answer", () => {
  const request: StreamRequest = {
    provider: "openai",
    model: "m",
    tools: [
      { name: MCP, parameters: { type: "object" } },
      { name: "lookup", parameters: { type: "object" } },
    ],
    toolChoice: { type: "tool", name: MCP },
    messages: [
      { role: "user", content: "hi" },
      { role: "assistant", content: "", toolCalls: [{ id: "toolu_1", name: MCP, arguments: {} }] },
      { role: "tool", toolCallId: "toolu_1", name: MCP, content: "ok" },
    ],
  };

  it("withProviderToolNames renames the tools, the calls of earlier turns, their results and tool_choice alike", () => {
    const { request: sent, names } = withProviderToolNames(request, openai);
    const short = names.toProvider(MCP);
    expect(short).not.toBe(MCP);
    expect(sent.tools.map((tool) => tool.name)).toEqual([short, "lookup"]);
    expect(sent.toolChoice).toEqual({ type: "tool", name: short });
    expect(sent.messages[1]).toMatchObject({ toolCalls: [{ id: "toolu_1", name: short }] });
    expect(sent.messages[2]).toEqual({ role: "tool", toolCallId: "toolu_1", name: short, content: "ok" });
    expect(JSON.stringify(sent)).not.toContain(MCP);
    // For Anthropic the name fits: the request is the same object.
    expect(withProviderToolNames(request, upstreamProviders.anthropic.toolNames).request).toBe(request);
  });

  it("clientNames gives the provider's events back with the client's names, finish and abort included", async () => {
    const names = new ToolNames([MCP], openai);
    const short = names.toProvider(MCP);
    const call = { index: 0, id: "c", name: short, arguments: {}, rawArguments: "{}" };
    const events: EncodableEvent[] = [
      { type: "tool-call-start", index: 0, id: "c", name: short },
      { type: "tool-call-delta", index: 0, id: "c", argumentsDelta: "{}", closed: true },
      { type: "tool-call", ...call },
      {
        type: "finish",
        reason: "tool-calls",
        rawReason: null,
        toolCalls: [call],
        invalidToolCalls: [],
        text: "",
        reasoning: "",
      },
      { type: "abort", reason: "cancelled", discarded: [{ index: 1, id: null, name: short, rawArguments: "" }] },
    ];
    const out = (await collect(clientNames(fromChunks([events]), names))).flat();
    expect(JSON.stringify(out)).not.toContain(short);
    expect(out[0]).toMatchObject({ name: MCP });
    expect(out[2]).toMatchObject({ name: MCP });
    expect(out[3]).toMatchObject({ toolCalls: [{ name: MCP }] });
    expect(out[4]).toMatchObject({ discarded: [{ name: MCP }] });
  });

  it("toolNameIn takes what the client's protocol takes and names the path otherwise", () => {
    const anthropic = upstreamProviders.anthropic.toolNames;
    expect(toolNameIn(MCP, "tools[0].name", anthropic)).toBe(MCP);
    expect(toolNameIn("9-lives", "tools[0].name", anthropic)).toBe("9-lives");
    expect(() => toolNameIn("x".repeat(129), "tools[3].name", anthropic)).toThrow(/tools\[3\]\.name/);
    expect(() => toolNameIn("a.b", "tools[0].name", anthropic)).toThrow(/1 to 128 letters/);
    expect(() => toolNameIn(MCP, "input[2].name", openai)).toThrow(/input\[2\]\.name/);
  });
});
