// joinDeltas (docs/performance.md): an option of the encoders, not of streamToolCallBatches.
// The batches hold every event the body had ready; an encoder given `joinDeltas: true` writes each
// run of one call's fragments in a batch as one frame (the same arguments when read back), and
// `joinDeltas(batch)` does the same to an array. The recording arrives here in one piece, as a
// fast network chunk would. Run `npm run build` once, then `./node_modules/.bin/node examples/join-deltas.ts`.
import { readFileSync } from "node:fs";
import { joinDeltas, streamToolCallBatches, ToolCallEventEncoderStream } from "tool-call-stream";

const recording = readFileSync(new URL("./recordings/openai-chat-parallel-tool-calls.sse", import.meta.url));
const response = () => new Response(recording); // in an app: await fetch(url, init)
const frames = async (encoder: ToolCallEventEncoderStream): Promise<number> => {
  const text = await new Response(
    streamToolCallBatches(response(), { provider: "openai" }).pipeThrough(encoder),
  ).text();
  return text.split("\n\n").filter((frame) => frame.startsWith("event:")).length;
};

let events = 0;
let joined = 0;
for await (const batch of streamToolCallBatches(response(), { provider: "openai" })) {
  events += batch.length;
  joined += joinDeltas(batch).length;
}
console.log(`${events} events, ${joined} after joinDeltas(batch)`);
console.log(
  `frames: ${await frames(new ToolCallEventEncoderStream())}, with joinDeltas: true: ${await frames(new ToolCallEventEncoderStream({ joinDeltas: true }))}`,
);
