// A fake of every provider on 127.0.0.1 for the agent tests: each request is answered in the
// provider's own wire format (the Worker's scripted writers), told apart by its path. A request
// that offers a shell tool and carries no result of it yet gets a call of that tool; any other
// request (the turn after the tool ran, an agent's background calls) gets text that repeats
// every marker the request holds, so the agent's final answer shows what its tool printed.
import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { Dice, seedOf, tokens } from "../../worker/upstream/replay/scripted/pieces.ts";
import type { ScriptedCall } from "../../worker/upstream/replay/scripted/script.ts";
import { scriptWriters } from "../../worker/upstream/replay/scripted/writers/index.ts";

/** The provider a path of the fake belongs to (the Worker's base URLs point at these prefixes). */
const ROUTES: [RegExp, keyof typeof scriptWriters][] = [
  [/^\/openai\/v1\/chat\/completions$/, "openai"],
  [/^\/openai\/v1\/responses$/, "openai-responses"],
  [/^\/anthropic\/v1\/messages$/, "anthropic"],
  [/^\/gemini\/v1beta\/models\/[^/]+:streamGenerateContent$/, "gemini"],
  [/^\/gemini\/v1beta\/interactions$/, "gemini-interactions"],
  [/^\/bedrock\/model\/[^/]+\/converse-stream$/, "bedrock"],
  [/^\/cohere\/v2\/chat$/, "cohere"],
  [/^\/ollama\/api\/chat$/, "ollama"],
];

/** A request the fake answered: which provider, and its body as text. */
export interface SeenProviderRequest {
  provider: string;
  body: string;
  answered: "call" | "text" | "failed";
}

/** A scripted answer in a provider's own framing (a failure inside its stream, say). */
export interface FakeAnswer {
  contentType: string;
  chunks: readonly (string | Uint8Array)[];
}

/** The running fake. */
export interface FakeProvider {
  /** The base URL of each provider's Worker variable. */
  vars: Record<string, string>;
  seen: SeenProviderRequest[];
  stop(): Promise<void>;
}

/** The fake's call for the agent tests: the agent's own shell tool (Claude Code's `Bash`, Codex's `exec_command`), with the command the prompt asked for. */
export function shellCall(body: string): ScriptedCall | undefined {
  const asked = body.match(/echo OUT-\$\(\(6\*7\)\)-[a-z0-9-]+/)?.[0];
  if (asked === undefined) return undefined;
  if (body.includes('"name":"Bash"'))
    return { name: "Bash", arguments: { command: asked, description: "Print the tag" } };
  if (body.includes('"name":"exec_command"')) return { name: "exec_command", arguments: { cmd: asked } };
  return undefined;
}

/**
 * Starts the fake. `call` decides the tool call for a request that offers a shell tool (by the
 * tool names it offers, from the body's text), or `undefined` for a text answer; `marker` is the
 * text whose presence in a request means the tool already ran; `failing` gives, for a request,
 * the answer to send instead (a failure inside the stream), if any.
 */
export async function startFakeProvider(
  call: (body: string) => ScriptedCall | undefined,
  marker: string,
  failing: (body: string, provider: string) => FakeAnswer | undefined = () => undefined,
): Promise<FakeProvider> {
  const seen: SeenProviderRequest[] = [];
  const server: Server = createServer((request, response) => {
    void answer(request).then(
      ({ status, contentType, chunks }) => {
        response.writeHead(status, { "content-type": contentType });
        for (const chunk of chunks) response.write(chunk);
        response.end();
      },
      (error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" });
        response.end(String(error));
      },
    );
  });
  async function answer(
    request: IncomingMessage,
  ): Promise<{ status: number; contentType: string; chunks: readonly (string | Uint8Array)[] }> {
    const parts: Buffer[] = [];
    for await (const part of request) parts.push(part as Buffer);
    const body = Buffer.concat(parts).toString("utf8");
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const provider = ROUTES.find(([pattern]) => pattern.test(path))?.[1];
    if (!provider) return { status: 404, contentType: "text/plain", chunks: [new TextEncoder().encode("no route")] };
    const failure = failing(body, provider);
    if (failure) {
      seen.push({ provider, body, answered: "failed" });
      return { status: 200, ...failure };
    }
    const ran = body.includes(marker);
    const scripted = ran ? undefined : call(body);
    seen.push({ provider, body, answered: scripted ? "call" : "text" });
    const found = body.match(new RegExp(`${marker}[A-Za-z0-9-]*`, "g")) ?? [];
    const text = scripted ? "" : `The command printed ${[...new Set(found)].join(", ") || "nothing yet"}.`;
    const dice = new Dice(seedOf(body.slice(0, 2000)));
    const wire = scriptWriters[provider](
      {
        model: "fake-model",
        text,
        plan: "",
        calls: scripted ? [scripted] : [],
        inputTokens: tokens(body),
        tools: [],
        now: Date.UTC(2026, 10, 27),
      },
      dice,
    );
    return { status: 200, contentType: wire.contentType, chunks: wire.chunks };
  }
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  const base = `http://127.0.0.1:${address.port}`;
  return {
    vars: {
      OPENAI_API_KEY: "fake",
      OPENAI_BASE_URL: `${base}/openai/v1`,
      ANTHROPIC_API_KEY: "fake",
      ANTHROPIC_BASE_URL: `${base}/anthropic/v1`,
      GEMINI_API_KEY: "fake",
      GEMINI_BASE_URL: `${base}/gemini/v1beta`,
      AWS_ACCESS_KEY_ID: "AKIDFAKE",
      AWS_SECRET_ACCESS_KEY: "fake",
      AWS_REGION: "us-east-1",
      BEDROCK_BASE_URL: `${base}/bedrock`,
      COHERE_API_KEY: "fake",
      COHERE_BASE_URL: `${base}/cohere/v2`,
      OLLAMA_BASE_URL: `${base}/ollama`,
    },
    seen,
    stop: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
