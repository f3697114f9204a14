// Snapshot and resume in a pipeThrough chain (docs/snapshots.md): the accumulator's state is
// taken each time a write into it has resolved; a server that stops after the sixth delta is
// resumed by a new accumulator restored from the last snapshot, fed the remaining deltas.
// Run `npm run build` once, then `./node_modules/.bin/node examples/snapshot-resume.ts`.
import { openAsBlob } from "node:fs";
import { restoreAccumulator, snapshotAccumulator, type ToolCallEvent } from "tool-call-stream/core";
import { OpenAIChatDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/openai";

const recording = new URL("./recordings/openai-chat-parallel-tool-calls.sse", import.meta.url);
const deltas = (await openAsBlob(recording))
  .stream()
  .pipeThrough(new SSEDecoderStream())
  .pipeThrough(new OpenAIChatDeltaStream());

const first = new ToolCallAccumulatorStream();
const writer = first.writable.getWriter();
const seen: ToolCallEvent[] = [];
void first.readable.pipeTo(new WritableStream({ write: (event) => void seen.push(event) })).catch(() => {});
let saved = "";
let written = 0;
await deltas
  .pipeTo(
    new WritableStream({
      async write(delta) {
        await writer.write(delta); // resolved: the accumulator has taken this delta and emitted its events
        saved = JSON.stringify(snapshotAccumulator(first)); // store it anywhere: plain JSON
        if (++written === 6) throw new Error("the server stops here");
      },
    }),
    { preventCancel: true }, // the remaining deltas stay readable for the resumed accumulator
  )
  .catch((error: Error) => console.log(`after ${written} deltas, ${seen.length} events: ${error.message}`));

const resumed = restoreAccumulator(new ToolCallAccumulatorStream(), JSON.parse(saved));
for await (const event of deltas.pipeThrough(resumed)) {
  if (event.type === "tool-call") console.log("resumed:", event.name, JSON.stringify(event.arguments));
  if (event.type === "finish") console.log("resumed:", event.type, event.reason, event.toolCalls.length, "calls");
}
