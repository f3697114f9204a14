// The benchmark scenarios of issue 3, shared by `run.ts` (with the peers) and `focus.ts`.
import { anthropic, argumentsOf, fragments, networkChunks, openAIChat, responses, type Body } from "./bodies.ts";

/**
 * One input: its SSE body, the size of the network chunks it arrives in (`"event"`: one SSE event
 * per chunk, as a model streaming token by token sends them), and its family for the growth fit.
 */
export interface Scenario {
  name: string;
  body: Body;
  chunkSize: number | "event";
  family: string;
  size?: number;
}

const FRAMINGS = ["openai", "anthropic", "openai-responses"] as const;

function oneCall(framing: Body["framing"], pieces: string[]): string {
  return framing === "openai"
    ? openAIChat(
        [],
        pieces.map((p) => [0, p]),
      )
    : framing === "anthropic"
      ? anthropic([pieces])
      : responses([pieces]);
}

/** Every scenario, in the order they are run; `quick` keeps the small sizes only. */
export function benchScenarios(quick: boolean): Scenario[] {
  const list: Scenario[] = [];
  const text = fragments("The quick brown fox jumps over the lazy dog. 杭州 ".repeat(quick ? 400 : 2000), 4);
  list.push({
    name: "many small text deltas",
    family: "text",
    chunkSize: 1024,
    body: { framing: "openai", sse: openAIChat(text, []) },
  });
  const eight = Array.from({ length: 8 }, () => fragments(argumentsOf(2048), 6));
  const sequential = eight.flatMap((pieces, index) => pieces.map((piece) => [index, piece] as [number, string]));
  const interleaved: [number, string][] = [];
  for (let i = 0; i < Math.max(...eight.map((p) => p.length)); i++)
    eight.forEach((pieces, index) => pieces[i] !== undefined && interleaved.push([index, pieces[i]!]));
  list.push({
    name: "8 parallel calls x 2 KB, 6-char fragments",
    family: "parallel",
    chunkSize: 1024,
    body: { framing: "openai", sse: openAIChat([], sequential) },
  });
  list.push({
    name: "8 parallel calls x 2 KB, interleaved",
    family: "parallel-interleaved",
    chunkSize: 1024,
    body: { framing: "openai", sse: openAIChat([], interleaved) },
  });
  const sizes = quick ? [10_240, 51_200] : [10_240, 51_200, 204_800, 1_048_576];
  for (const framing of FRAMINGS) {
    for (const size of sizes) {
      const sse = oneCall(framing, fragments(argumentsOf(size), 4));
      list.push({
        name: `1 call, ${size / 1024} KB, 4-char fragments (${framing})`,
        family: `one-call-${framing}`,
        size,
        chunkSize: 1024,
        body: { framing, sse },
      });
    }
  }
  // Token by token (issue 29): one event per network chunk.
  list.push({
    name: "8 parallel calls x 2 KB, 6-char fragments, one event per chunk",
    family: "paced-parallel",
    chunkSize: "event",
    body: { framing: "openai", sse: openAIChat([], sequential) },
  });
  list.push({
    name: "1 call, 50 KB, 4-char fragments, one event per chunk (anthropic)",
    family: "paced-anthropic",
    chunkSize: "event",
    body: { framing: "anthropic", sse: oneCall("anthropic", fragments(argumentsOf(51_200), 4)) },
  });
  // 7-byte network chunks cut inside most multi-byte characters of the arguments.
  for (const framing of FRAMINGS) {
    const sse = oneCall(framing, fragments(argumentsOf(51_200), 4));
    list.push({
      name: `1 call, 50 KB, 7-byte network chunks splitting UTF-8 (${framing})`,
      family: `utf8-${framing}`,
      chunkSize: 7,
      body: { framing, sse },
    });
  }
  return list;
}

/** The network chunks of a scenario's body. */
export function scenarioChunks(scenario: Scenario): Uint8Array[] {
  const encoder = new TextEncoder();
  if (scenario.chunkSize !== "event") return networkChunks(encoder.encode(scenario.body.sse), scenario.chunkSize);
  return scenario.body.sse
    .split(/(?<=\n\n)/)
    .filter((event) => event !== "")
    .map((event) => encoder.encode(event));
}
