// Benchmark of the AWS event-stream framing (issue 14): a generated Bedrock ConverseStream body
// with one 200 KB tool call in small fragments, each fragment its own event-stream message as
// Bedrock sends them, fed in network chunks to every implementation in one run, as ratios to a
// floor. Run: node bench/event-stream.ts   (BENCH_QUICK=1 for a short run)
//
// Rows:
// - floor: split frames (pieces joined once), check both CRC-32s, read `:event-type`, decode the
//   payload, JSON.parse it, concatenate the call's input, parse it once at the end;
// - tool-call-stream framing: AwsEventStreamDecoder alone (bytes to messages with text payloads);
// - @smithy/eventstream-codec: the AWS SDK's codec (`decode`, which checks both CRCs and reads the
//   headers) behind a linear splitter, then the payload decoded to text: the same work as the row above;
// - tool-call-stream chain: streamToolCalls(body, { provider: "bedrock" }), complete calls out;
// - @ai-sdk/amazon-bedrock: its public `doStream` with a fetch that returns the same bytes.
// The two contenders' packages are installed on first use (scripts/on-demand.mjs).
import { onDemandImport } from "../scripts/on-demand.mjs";
import { AwsEventStreamDecoder, streamToolCalls } from "../src/index.ts";
import { crc32 } from "../src/framing/crc32.ts";
import { converseBody } from "./event-stream-body.ts";
import { streamOf } from "./stream-of.ts";

/** What this bench uses of the two on-demand packages (no dev dependencies, so no types of theirs here). */
interface AiSdkBedrock {
  createAmazonBedrock(options: { region: string; apiKey: string; fetch: typeof fetch }): (model: string) => {
    doStream(options: { prompt: unknown[] }): Promise<{ stream: ReadableStream<{ type: string }> }>;
  };
}
interface SmithyCodec {
  EventStreamCodec: new (
    toUtf8: (bytes: Uint8Array) => string,
    fromUtf8: (s: string) => Uint8Array,
  ) => { decode(frame: Uint8Array): { headers: Record<string, { value: unknown } | undefined>; body: Uint8Array } };
}

const { createAmazonBedrock } = await onDemandImport<AiSdkBedrock>("@ai-sdk/amazon-bedrock");
const { EventStreamCodec } = await onDemandImport<SmithyCodec>("@smithy/eventstream-codec");

const quick = process.env["BENCH_QUICK"] === "1";
const budgetMs = Number(process.env["BENCH_BUDGET_MS"] ?? (quick ? 300 : 1500));
type Contender = (chunks: Uint8Array[]) => Promise<number>;

/** Calls a body stream of whole frames: frames split across chunks are joined once, when complete. */
async function eachFrame(chunks: Uint8Array[], onFrame: (frame: Uint8Array) => void): Promise<void> {
  const reader = streamOf(chunks).getReader();
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    let chunk = value;
    if (pendingBytes > 0) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      const head = pending[0]!.length >= 4 ? pending[0]! : join(pending, pendingBytes);
      const total = new DataView(head.buffer, head.byteOffset).getUint32(0);
      if (pendingBytes < total) continue;
      chunk = join(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
    }
    let at = 0;
    while (chunk.length - at >= 4) {
      const total = new DataView(chunk.buffer, chunk.byteOffset + at).getUint32(0);
      if (chunk.length - at < total) break;
      onFrame(chunk.subarray(at, at + total));
      at += total;
    }
    if (at < chunk.length) {
      pending = [chunk.subarray(at)];
      pendingBytes = chunk.length - at;
    }
  }
}

function join(parts: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const text = new TextDecoder();
const u32 = (b: Uint8Array, at: number): number =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;

/** The floor's read of one frame: both CRCs, the `:event-type` header, the payload as JSON. */
function floorFrame(frame: Uint8Array, inputs: string[]): void {
  const end = frame.length - 4;
  if (crc32(frame, 0, 8) !== u32(frame, 8) || crc32(frame, 0, end) !== u32(frame, end)) throw new Error("crc");
  const headersEnd = 12 + u32(frame, 4);
  let event = "";
  for (let at = 12; at < headersEnd; ) {
    const nameLength = frame[at]!;
    const name = text.decode(frame.subarray(at + 1, at + 1 + nameLength));
    const length = (frame[at + 2 + nameLength]! << 8) | frame[at + 3 + nameLength]!; // Bedrock's headers are strings
    if (name === ":event-type") event = text.decode(frame.subarray(at + 4 + nameLength, at + 4 + nameLength + length));
    at += 4 + nameLength + length;
  }
  const payload = JSON.parse(text.decode(frame.subarray(headersEnd, end)));
  if (event === "contentBlockDelta" && payload.delta.toolUse) inputs.push(payload.delta.toolUse.input);
}

const floor: Contender = async (chunks) => {
  const inputs: string[] = [];
  await eachFrame(chunks, (frame) => floorFrame(frame, inputs));
  return JSON.parse(inputs.join("")) ? 1 : 0;
};

/** Framing alone: bytes to messages with text payloads; returns how many. */
const oursFraming: Contender = async (chunks) => {
  let messages = 0;
  const framing = new AwsEventStreamDecoder(() => messages++);
  const reader = streamOf(chunks).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    framing.feed(value);
  }
  framing.end();
  return messages;
};

const codec = new EventStreamCodec(
  (bytes: Uint8Array) => text.decode(bytes),
  (s: string) => new TextEncoder().encode(s),
);
const smithyFraming: Contender = async (chunks) => {
  let messages = 0;
  await eachFrame(chunks, (frame) => {
    const message = codec.decode(frame);
    const payload = text.decode(message.body);
    if (typeof message.headers[":event-type"]?.value === "string" && payload.length > 0) messages++;
  });
  return messages;
};

const oursChain: Contender = async (chunks) => {
  let calls = 0;
  const reader = streamToolCalls(streamOf(chunks), {
    provider: "bedrock",
    maxArgumentsLength: 64 * 1024 * 1024,
  }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return calls;
    if (value.type === "tool-call") calls++;
  }
};

const aiSdk: Contender = async (chunks) => {
  const fetch = (async () =>
    new Response(streamOf(chunks), {
      headers: { "content-type": "application/vnd.amazon.eventstream" },
    })) as unknown as typeof globalThis.fetch;
  const model = createAmazonBedrock({ region: "us-east-1", apiKey: "bench", fetch })("amazon.nova-micro-v1:0");
  const { stream } = await model.doStream({ prompt: [{ role: "user", content: [{ type: "text", text: "x" }] }] });
  let calls = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return calls;
    if (value.type === "tool-call") calls++;
  }
};

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(contender: Contender, chunks: Uint8Array[]): Promise<number> {
  const start = performance.now();
  await contender(chunks);
  return performance.now() - start;
}

const contenders: [string, Contender][] = [
  ["floor (frames, both CRCs, JSON.parse, one parse of the arguments)", floor],
  ["tool-call-stream: AwsEventStreamDecoder (framing only)", oursFraming],
  ["@smithy/eventstream-codec decode (framing only)", smithyFraming],
  ["tool-call-stream: streamToolCalls, provider bedrock (whole chain)", oursChain],
  ["@ai-sdk/amazon-bedrock doStream (whole chain)", aiSdk],
];

const lines: string[] = [];
const { body, messages } = converseBody(200 * 1024, 8);
for (const chunkSize of quick ? [16 * 1024] : [1024, 16 * 1024]) {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += chunkSize) chunks.push(body.slice(at, at + chunkSize));
  // Every contender sees the call (or all the messages) before anything is timed.
  const expected = [1, messages, messages, 1, 1];
  for (const [i, [name, contender]] of contenders.entries()) {
    const got = await contender(chunks);
    if (got !== expected[i]) throw new Error(`${name}: ${got}, expected ${expected[i]}`);
  }
  // Interleaved rounds, each running every contender once in rotating order; the ratio is the median of per-round ratios.
  const times = contenders.map(() => [] as number[]);
  const until = performance.now() + budgetMs * contenders.length;
  for (let round = 0; round < 5 || (performance.now() < until && round < 40); round++) {
    for (let k = 0; k < contenders.length; k++) {
      const which = (k + round) % contenders.length;
      times[which]!.push(await timed(contenders[which]![1], chunks));
    }
  }
  lines.push(
    `\n### ConverseStream, one 200 KB call in 8-character fragments (${messages} messages, ${(body.length / 1e6).toFixed(2)} MB), ${chunkSize / 1024} KiB network chunks\n`,
  );
  lines.push("| implementation | median ms | x floor |\n| --- | ---: | ---: |");
  contenders.forEach(([name], i) => {
    const ratio = median(times[i]!.map((ms, round) => ms / times[0]![round]!));
    lines.push(`| ${name} | ${median(times[i]!).toFixed(2)} | ${ratio.toFixed(2)} |`);
  });
}
console.log(
  `Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC${quick ? " (quick run)" : ""}\n${lines.join("\n")}`,
);
