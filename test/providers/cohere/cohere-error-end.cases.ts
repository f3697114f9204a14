// Cohere's error inside the stream (an `event: error`, or its error responses' `{ "message": ... }`
// object written into the stream) is the stream's last: it ends the stream there, the half call
// discarded, and a body held open after it (a proxy that keeps the connection) is cancelled, not
// waited on. Before, the chain read on to the close; the Worker's /v1/stream, /v1/run and /v1/ui
// answered at its idle timeout (test/worker/terminal-event-held-open.test.ts).
import { assertEquals, group } from "../../support/harness.ts";
import { readHeldOpen } from "../../support/streams.ts";

const HEAD = [
  'event: content-delta\ndata: {"type":"content-delta","index":0,"delta":{"message":{"content":{"text":"Hi."}}}}\n\n',
  'event: tool-call-start\ndata: {"type":"tool-call-start","index":1,"delta":{"message":{"tool_calls":{"id":"c_1","type":"function","function":{"name":"weather","arguments":"{\\"city\\":"}}}}}\n\n',
];

group("Cohere: an error inside the stream ends it", (test) => {
  for (const [label, error] of [
    ["an `event: error`", 'event: error\ndata: {"type":"error","error":"internal server error"}\n\n'],
    ["its error object (`{ message }`)", 'data: {"message":"internal server error"}\n\n'],
  ] as const)
    test(`${label}: provider-error at once, the half call discarded, the body cancelled`, async () => {
      const { events, cancelled } = await readHeldOpen("cohere", [...HEAD, error]);
      assertEquals(
        events?.map((e) => (e.type === "abort" ? `abort ${e.reason} ${e.discarded.length}` : e.type)),
        ["text-delta", "tool-call-start", "tool-call-delta", "error", "abort provider-error 1"],
      );
      assertEquals(cancelled, "The response ended.");
    });
});
