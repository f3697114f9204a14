// Every runtime's runner imports this one module: the cases it registers are the whole suite.
import "./sse-decoder-stream.cases.ts";
import "./openai-chat-conformance.cases.ts";
import "./openai-chat-quirks.cases.ts";
import "./provider-conformance.cases.ts";
import "./anthropic-gemini-rules.cases.ts";
import "./openai-responses-rules.cases.ts";
import "./provider-detect.cases.ts";
import "./messages.cases.ts";
import "./incremental-json-parser.cases.ts";
import "./json-repair-and-schema.cases.ts";
import "./partial-arguments.cases.ts";
import "./stream-tool-calls.cases.ts";
import "./truncation.cases.ts";
import "./accumulator-snapshot.cases.ts";
import "./tool-call-event-sse.cases.ts";
export { cases } from "../support/harness.ts";
