// A non-2xx answer's body is read for the provider's error object up to 64 KiB, counted in bytes as
// they arrive: a body past it is reported by its status alone, whether it came in one chunk or in
// many, and no chunk is decoded past the bound (one large chunk was decoded whole, and a body of
// two-byte characters was read to twice the bound).
import { type StreamErrorInfo, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const BOUND = 64 * 1024;

/** The `http-error` the chain reports for a 500 whose body is `chunks`. */
async function httpError(chunks: readonly Uint8Array[]): Promise<StreamErrorInfo | undefined> {
  const events = await collect(
    streamToolCalls(new Response(fromChunks(chunks), { status: 500 }), { provider: "openai" }),
  );
  return events.find((event): event is Extract<ToolCallEvent, { type: "error" }> => event.type === "error")?.error;
}

/** An OpenAI error object whose message makes it `size` characters of JSON. */
const errorObject = (size: number, character = "x") => {
  const head = '{"error":{"type":"server_error","message":"';
  const tail = '"}}';
  return `${head}${character.repeat(size - head.length - tail.length)}${tail}`;
};

/** `data` split into chunks of `size` bytes. */
const chunksOf = (data: Uint8Array, size: number) =>
  Array.from({ length: Math.ceil(data.length / size) }, (_, at) => data.slice(at * size, (at + 1) * size));

group("A non-2xx answer's error body, read to a bound in bytes", (test) => {
  test("an error object within the bound is the http-error's data, in one chunk or in 1 KiB chunks", async () => {
    const body = bytes(errorObject(BOUND - 1));
    const whole = await httpError([body]);
    assertEquals((whole?.data as { error: { type: string } } | undefined)?.error.type, "server_error");
    assertEquals(await httpError(chunksOf(body, 1024)), whole);
  });

  test("one past the bound is the status alone, in one chunk as in 1 KiB chunks", async () => {
    const body = bytes(errorObject(BOUND + 100));
    const whole = await httpError([body]);
    assertEquals(whole, { code: "http-error", status: 500, message: "The provider answered with HTTP 500." });
    assertEquals(await httpError(chunksOf(body, 1024)), whole);
  });

  test("the bound counts bytes, not characters: 40,000 two-byte characters are past it", async () => {
    const body = bytes(errorObject(40_000, "é"));
    assertEquals(body.length > BOUND, true);
    assertEquals((await httpError([body]))?.data, undefined);
  });
});
