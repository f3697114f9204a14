// Benchmark (issue 28): streamToolCalls given an SDK's parsed chunks, beside the round trip an
// adapter without object input must make (JSON.stringify each chunk, then read the bytes), and
// beside JSON.stringify per chunk alone (the floor to beat), in interleaved rounds, as ratios.
// Run: node bench/sdk-chunks.ts   (part of npm run bench; BENCH_QUICK=1 for a short run)
import { streamToolCalls, type ToolCallEvent } from "../src/index.ts";

const quick = process.env["BENCH_QUICK"] === "1";
const rounds = quick ? 5 : 15;

/** OpenAI Chat chunks of `calls` parallel calls of `size` characters of arguments in `fragment`-character pieces. */
function chatChunks(calls: number, size: number, fragment: number): object[] {
  const chunks: object[] = [];
  const chunk = (delta: object, finish: string | null = null) => ({
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  for (let index = 0; index < calls; index++) {
    const args = JSON.stringify({ text: "x".repeat(size - 12) });
    chunks.push(
      chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: "t", arguments: "" } }] }),
    );
    for (let at = 0; at < args.length; at += fragment)
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(at, at + fragment) } }] }));
  }
  chunks.push(chunk({}, "tool_calls"));
  return chunks;
}

async function* yieldAll(objects: readonly object[]): AsyncGenerator<object> {
  yield* objects;
}

async function drain(events: ReadableStream<ToolCallEvent>): Promise<number> {
  let count = 0;
  for await (const _ of events) count++;
  return count;
}

const encoder = new TextEncoder();
const CONTENDERS: Record<string, (objects: readonly object[]) => Promise<unknown>> = {
  "JSON.stringify per chunk (the floor)": async (objects) => {
    let length = 0;
    for (const object of objects) length += JSON.stringify(object).length;
    return length;
  },
  "streamToolCalls(the SDK's objects)": (objects) => drain(streamToolCalls(yieldAll(objects), { provider: "openai" })),
  "stringify, encode, streamToolCalls(bytes)": (objects) => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const object = objects[i++];
        if (object === undefined) return controller.close();
        controller.enqueue(encoder.encode(`data: ${JSON.stringify(object)}\n\n`));
      },
    });
    return drain(streamToolCalls(body, { provider: "openai" }));
  },
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const [label, objects] of [
  ["8 parallel calls of 2 KB in 6-character fragments", chatChunks(8, 2048, 6)],
  ["one call of 50 KB in 4-character fragments", chatChunks(1, 50_000, 4)],
] as const) {
  const names = Object.keys(CONTENDERS);
  const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds + 2; round++) {
    for (const name of round % 2 ? names : [...names].reverse()) {
      const start = performance.now();
      await CONTENDERS[name]!(objects);
      if (round >= 2) times[name]!.push(performance.now() - start); // two warm-up rounds
    }
  }
  const floorMs = median(times[names[0]!]!);
  console.log(`\n${label} (${objects.length} chunks), median of ${rounds} interleaved rounds:`);
  for (const name of names) {
    const ms = median(times[name]!);
    console.log(`  ${name.padEnd(44)} ${ms.toFixed(2).padStart(8)} ms  ${(ms / floorMs).toFixed(2)}x the floor`);
  }
}
