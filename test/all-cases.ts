// Every runtime's runner imports this one module: the cases it registers are the whole suite,
// in the order of the chain. test/node/suite-index.test.ts checks that every *.cases.ts file is here.
// Framing: bytes to messages.
import "./framing/sse-decoder-stream.cases.ts";
import "./framing/aws-event-stream.cases.ts";
import "./framing/text-framings.cases.ts";
// Providers: messages to normalized deltas.
import "./providers/openai-chat/openai-chat-conformance.cases.ts";
import "./providers/openai-chat/openai-chat-quirks.cases.ts";
import "./providers/openai-chat/openai-chat-reasoning-fields.cases.ts";
import "./providers/openai-chat/openai-chat-parallel-wrapper.cases.ts";
import "./providers/openai-chat/openai-chat-custom-tools.cases.ts";
import "./providers/openai-chat/openai-chat-refusal.cases.ts";
import "./providers/openai-chat/openai-chat-citations.cases.ts";
import "./providers/openai-chat/openai-chat-whole-completion.cases.ts";
import "./providers/openai-chat/openai-chat-audio.cases.ts";
import "./providers/anthropic/anthropic-rules.cases.ts";
import "./providers/anthropic/anthropic-turn-blocks.cases.ts";
import "./providers/anthropic/anthropic-server-results.cases.ts";
import "./providers/anthropic/anthropic-container.cases.ts";
import "./providers/anthropic/anthropic-refusal-turn.cases.ts";
import "./providers/anthropic/anthropic-citations.cases.ts";
import "./providers/gemini/gemini-rules.cases.ts";
import "./providers/gemini/gemini-doc-shapes.cases.ts";
import "./providers/gemini/gemini-grounding.cases.ts";
import "./providers/gemini/gemini-usage.cases.ts";
import "./providers/openai-responses/openai-responses-rules.cases.ts";
import "./providers/openai-responses/openai-responses-unannounced-calls.cases.ts";
import "./providers/openai-responses/openai-responses-summary-parts.cases.ts";
import "./providers/openai-responses/openai-responses-built-in-calls.cases.ts";
import "./providers/openai-responses/openai-responses-programmatic.cases.ts";
import "./providers/openai-responses/openai-responses-tool-search.cases.ts";
import "./providers/openai-responses/openai-responses-client-items.cases.ts";
import "./providers/openai-responses/openai-responses-parallel-wrapper.cases.ts";
import "./providers/openai-responses/openai-responses-mcp-approval.cases.ts";
import "./providers/openai-responses/openai-responses-approval-limits.cases.ts";
import "./providers/openai-responses/openai-responses-server-calls.cases.ts";
import "./providers/openai-responses/openai-responses-refusal.cases.ts";
import "./providers/openai-responses/openai-responses-citations.cases.ts";
import "./providers/bedrock/bedrock-next-turn.cases.ts";
import "./providers/bedrock/bedrock-rules.cases.ts";
import "./providers/bedrock/bedrock-server-tools.cases.ts";
import "./providers/bedrock/bedrock-converse-citations.cases.ts";
import "./providers/bedrock/bedrock-invoke-citations.cases.ts";
import "./providers/bedrock/bedrock-signature-bound.cases.ts";
import "./providers/cohere/cohere-rules.cases.ts";
import "./providers/ollama/ollama-rules.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-rules.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-server-steps.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-resume.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-event-facts.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-step-parts.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-step-bound.cases.ts";
import "./providers/gemini-interactions/gemini-interactions-citations.cases.ts";
import "./providers/provider-conformance.cases.ts";
import "./providers/provider-detect.cases.ts";
import "./providers/messages.cases.ts";
import "./providers/finish-reasons.cases.ts";
import "./providers/cache-write-usage.cases.ts";
import "./providers/prototype-keys.cases.ts";
import "./providers/provider-kits.cases.ts";
import "./providers/request-body.cases.ts";
import "./providers/server-calls-request.cases.ts";
import "./providers/compaction-across-providers.cases.ts";
import "./providers/turn-order.cases.ts";
import "./providers/request-files.cases.ts";
import "./providers/reasoning-request.cases.ts";
// JSON: incremental parsing, repair, schema checks.
import "./json/incremental-json-parser.cases.ts";
import "./json/json-repair-and-schema.cases.ts";
import "./schema/standard-schema.cases.ts";
import "./schema/tool-schema.cases.ts";
import "./schema/bounded-reports.cases.ts";
import "./schema/early-validation.cases.ts";
import "./schema/check-budget.cases.ts";
import "./schema/json-schema-plugin.cases.ts";
import "./schema/early-soundness.cases.ts";
import "./schema/linear-pattern.cases.ts";
import "./schema/pattern-budget.cases.ts";
import "./schema/keyword-work.cases.ts";
import "./schema/check-nesting.cases.ts";
import "./schema/json-schema-suite.cases.ts";
// Accumulate: deltas to events.
import "./accumulate/partial-arguments.cases.ts";
import "./accumulate/accumulator-snapshot.cases.ts";
import "./accumulate/turn-blocks.cases.ts";
import "./accumulate/cut-calls.cases.ts";
import "./accumulate/finish-delta.cases.ts";
import "./accumulate/validate-tool-calls.cases.ts";
import "./accumulate/early-validation.cases.ts";
// Pipeline: the whole chain in one call.
import "./pipeline/tool-call-chain.cases.ts";
import "./pipeline/stream-tool-calls.cases.ts";
import "./pipeline/for-await.cases.ts";
import "./pipeline/provider-stream-tool-calls.cases.ts";
import "./pipeline/truncation.cases.ts";
import "./pipeline/read-faults.cases.ts";
import "./pipeline/fault-matrix.cases.ts";
import "./pipeline/pipeline-fast-paths.cases.ts";
import "./pipeline/openai-chat-fast-chunk.cases.ts";
import "./pipeline/responses-fast-delta.cases.ts";
import "./pipeline/custom-protocol.cases.ts";
import "./pipeline/framing-choice.cases.ts";
import "./pipeline/validator-tools.cases.ts";
import "./pipeline/stream-tool-call-batches.cases.ts";
import "./pipeline/batch-window.cases.ts";
import "./pipeline/chunk-reader.cases.ts";
import "./pipeline/sdk-chunks.cases.ts";
import "./pipeline/external-fixtures.cases.ts";
import "./pipeline/early-usage.cases.ts";
import "./pipeline/hostile-sdk-objects.cases.ts";
import "./pipeline/kept-depth.cases.ts";
import "./providers/provider-delta-stream.cases.ts";
import "./pipeline/turn-text-limit.cases.ts";
import "./pipeline/declared-tools.cases.ts";
import "./pipeline/whole-responses.cases.ts";
import "./pipeline/provider-hint.cases.ts";
// Tools: running calls, the loop.
import "./tools/tool-runner.cases.ts";
import "./tools/tool-loop.cases.ts";
import "./tools/per-call-control.cases.ts";
import "./tools/violation-retry.cases.ts";
import "./tools/computer-call-loop.cases.ts";
// Encode: events to bytes and back.
import "./encode/tool-call-event-sse.cases.ts";
import "./encode/client-protocols-fixtures.cases.ts";
import "./encode/client-protocol-properties.cases.ts";
import "./encode/client-protocol-rules.cases.ts";
import "./encode/held-calls-encoders.cases.ts";
import "./encode/agent-protocols-fixtures.cases.ts";
import "./encode/ready-batches.cases.ts";
import "./encode/join-deltas.cases.ts";
import "./encode/agent-reasoning-state.cases.ts";
import "./encode/anthropic-turn-blocks-encoder.cases.ts";
import "./encode/sent-fragments.cases.ts";
import "./encode/text-search.cases.ts";
import "./encode/citations-encoders.cases.ts";
import "./encode/responses-annotations-encoders.cases.ts";
import "./encode/gemini-grounding-encoders.cases.ts";
import "./encode/cited-spans-encoders.cases.ts";
import "./encode/converse-citations-encoders.cases.ts";
import "./encode/cohere-citations-encoders.cases.ts";
import "./encode/refusal-encoders.cases.ts";
import "./encode/cache-write-encoders.cases.ts";
import "./encode/error-kinds-encoders.cases.ts";
import "./encode/response-settings.cases.ts";
import { skippedFile } from "./support/harness.ts";
import { sharedData } from "./support/shared-data.ts";
// Case files that read the recordings as they load: without ../shared, each is one case named
// after the file, skipped.
// (Literal imports, so that bundlers and the dead-code check see them.)
if (sharedData.recordings.available) {
  await import("./providers/anthropic/anthropic-thinking-replay.cases.ts");
  await import("./providers/openai-responses/openai-responses-reasoning-replay.cases.ts");
} else {
  skippedFile("./providers/anthropic/anthropic-thinking-replay.cases.ts", ["recordings"]);
  skippedFile("./providers/openai-responses/openai-responses-reasoning-replay.cases.ts", ["recordings"]);
}
export { cases } from "./support/harness.ts";
