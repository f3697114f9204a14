import { assertEquals, group } from "../support/harness.ts";
import { bytes, decodeSSE } from "../support/streams.ts";

group("SSEDecoderStream", (test) => {
  test("reads LF, CRLF and CR line endings alike", async () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = `event: a${eol}data: 1${eol}${eol}data:2${eol}${eol}`;
      assertEquals(await decodeSSE([bytes(text)]), [{ event: "a", data: "1" }, { data: "2" }], JSON.stringify(eol));
    }
  });
});
