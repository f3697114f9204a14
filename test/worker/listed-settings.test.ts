// The settings that list names the Worker must know, MODEL_ALIASES and the *_SERVER_TOOLS allow-lists,
// are checked whole when the settings are read, as every other setting is: a pair whose target
// names no provider, a malformed pair, or a kind no server tool has is a SettingsError naming the
// variable and the entry (logged once), and every request let in gets the 500 `worker_misconfigured`
// in its protocol's own shape, naming the variable only. Before, a bad alias was a 400 blaming the
// client's `model` when a client named it (a malformed pair was skipped) and a misspelt kind allowed
// nothing, silently.
import Anthropic from "@anthropic-ai/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type Env, readSettings, SettingsError } from "../../worker/env.ts";
import { workerFetch } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const TOKEN = "s3cret-token";
const env = (overrides: Partial<Env>) => testEnv({ CLIENT_TOKEN: TOKEN, ...overrides });

/** The error readSettings throws for `overrides`. */
function settingsError(overrides: Partial<Env>): SettingsError {
  try {
    readSettings(env(overrides));
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error(`no SettingsError for ${JSON.stringify(overrides)}`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("MODEL_ALIASES is checked pair by pair", () => {
  it.each([
    [
      "claude-*=anthropc/claude-sonnet-4-6",
      "claude-*=anthropc/claude-sonnet-4-6",
      /the provider one of openai, openai-responses, anthropic/,
    ],
    ["a=openai/gpt-5,claude-sonnet-4-6", "claude-sonnet-4-6", /name=<provider>\/<model>/],
    ["=openai/gpt-5", "=openai/gpt-5", /name=<provider>\/<model>/],
    ["claude=gpt-5", "claude=gpt-5", /<provider>\/<model>/],
    ["claude=openai/", "claude=openai/", /<provider>\/<model>/],
    ["claude-*-sonnet=openai/gpt-5", "claude-*-sonnet=openai/gpt-5", /other than one at its end/],
    ["claude=openai/gpt-5,claude=gemini/gemini-2.5-flash", "claude=gemini/gemini-2.5-flash", /twice/],
  ])("%s: a SettingsError naming the variable and the pair", (value, entry, why) => {
    const error = settingsError({ MODEL_ALIASES: value });
    expect(error.setting).toBe("MODEL_ALIASES");
    expect(error.message).toContain(JSON.stringify(entry));
    expect(error.message).toMatch(why);
  });

  it("good pairs are read in order, each name with its provider and model, blanks left out", () => {
    const aliases = " claude-sonnet-4-6 = openai/gpt-5 ,, claude-haiku-*=gemini/gemini-2.5-flash,*=openai/x/y=z,";
    expect(readSettings(env({ MODEL_ALIASES: aliases })).modelAliases).toEqual([
      { name: "claude-sonnet-4-6", provider: "openai", model: "gpt-5" },
      { name: "claude-haiku-*", provider: "gemini", model: "gemini-2.5-flash" },
      { name: "*", provider: "openai", model: "x/y=z" },
    ]);
    expect(readSettings(env({ MODEL_ALIASES: " " })).modelAliases).toEqual([]);
  });
});

describe("ANTHROPIC_SERVER_TOOLS and OPENAI_SERVER_TOOLS are checked kind by kind", () => {
  it.each([
    [
      "ANTHROPIC_SERVER_TOOLS",
      "web_search,web_search_20250305",
      "web_search_20250305",
      /without its date \(web_search\)/,
    ],
    ["ANTHROPIC_SERVER_TOOLS", "websearch", "websearch", /web_search, web_fetch, code_execution/],
    ["ANTHROPIC_SERVER_TOOLS", "bash", "bash", /Anthropic runs/],
    ["OPENAI_SERVER_TOOLS", "web-search", "web-search", /web_search, mcp, tool_search/],
    ["OPENAI_SERVER_TOOLS", "file_search", "file_search", /OpenAI runs/],
  ] as const)("%s=%s: a SettingsError naming the variable and the kind", (name, value, entry, why) => {
    const error = settingsError({ [name]: value });
    expect(error.setting).toBe(name);
    expect(error.message).toContain(JSON.stringify(entry));
    expect(error.message).toMatch(why);
  });

  it("every kind the Worker forwards is taken", () => {
    const anthropic = "web_search,web_fetch,code_execution,tool_search_tool_regex,tool_search_tool_bm25,advisor";
    const openai = "web_search,mcp,tool_search,programmatic_tool_calling,shell";
    const settings = readSettings(env({ ANTHROPIC_SERVER_TOOLS: anthropic, OPENAI_SERVER_TOOLS: openai }));
    expect([...settings.anthropicServerTools]).toEqual(anthropic.split(","));
    expect([...settings.openaiServerTools]).toEqual(openai.split(","));
  });
});

describe("a request let in to a Worker with a bad list", () => {
  it("is a 500 worker_misconfigured in Anthropic's shape naming MODEL_ALIASES, not a 400 blaming `model`; the pair is logged once", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const upstream = new FakeUpstream({ kind: "hang" });
    const config = env({ ANTHROPIC_API_KEY: "sk-ant", MODEL_ALIASES: "claude-*=anthropc/claude-sonnet-4-6" });
    const sdk = new Anthropic({
      apiKey: TOKEN,
      baseURL: "http://localhost:8787",
      maxRetries: 0,
      fetch: workerFetch({ env: config, upstream }),
    });
    for (let i = 0; i < 2; i++) {
      const error = await sdk.messages
        .create({ model: "claude-sonnet-4-6", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.InternalServerError);
      const body = (error as InstanceType<typeof Anthropic.InternalServerError>).error as {
        error: { message: string };
      };
      expect(body.error.message).toBe(
        "This Worker is misconfigured (MODEL_ALIASES): its operator's log says what to fix.",
      );
    }
    expect(upstream.requests).toHaveLength(0);
    const lines = logged.mock.calls.map((call) => call.map(String).join(" "));
    expect(lines.filter((line) => line.includes("MODEL_ALIASES"))).toHaveLength(1);
    expect(lines.join("\n")).toContain('"claude-*=anthropc/claude-sonnet-4-6"');
  });

  it("on every endpoint, a misspelt OPENAI_SERVER_TOOLS kind is a 500 in the endpoint's shape naming it", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const response = await worker().call(
        new Request(`http://localhost:8787${endpoint.path}`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify(endpoint.valid()),
        }),
        env({ OPENAI_SERVER_TOOLS: "web-search" }),
      );
      expect(response.status, name).toBe(500);
      const { message } = await endpoint.expectError(response);
      expect(message, name).toBe(
        "This Worker is misconfigured (OPENAI_SERVER_TOOLS): its operator's log says what to fix.",
      );
    }
  });
});
