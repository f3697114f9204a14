// Bedrock ConverseStream with a cited answer, shared by its cases and by the next turn's check
// against the AWS SDK's types (test/node/next-turn-sdk-types.test.ts).
//
// Provenance: BUILT BY HAND (no real capture) from the shapes of @aws-sdk/client-bedrock-runtime
// 3.1164.0 (models_0.d.ts): ContentBlockDelta `text` and `citation` (CitationsDelta: `title`,
// `sourceContent: [{text}]`, `location`, a CitationLocation `documentChar` of `documentIndex`,
// `start`, `end`); the assistant message takes a cited block back as ContentBlock
// `citationsContent` (CitationsContentBlock: `content: [{text}]`, `citations`), as AWS's Strands
// Agents builds one from the stream (the block's text, its citations). Texts and the document made up.
import { converse } from "../../support/event-stream.ts";

/** The citation of the handbook's opening hours. */
export const HANDBOOK = {
  title: "Staff handbook",
  sourceContent: [{ text: "The office opens at 9:00 on weekdays." }],
  location: { documentChar: { documentIndex: 0, start: 120, end: 157 } },
};
/** The cited block's text, in two deltas, the citation between them. */
export const CITED = "the office opens at 9:00 on weekdays";

/** An uncited block, a cited one (its text, its citation, more text), an uncited one; `end_turn`. */
export const documentCitedTurn: Uint8Array<ArrayBuffer> = converse([
  ["messageStart", { role: "assistant" }],
  ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "According to the handbook, " } }],
  ["contentBlockStop", { contentBlockIndex: 0 }],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { text: "the office opens " } }],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { citation: HANDBOOK } }],
  ["contentBlockDelta", { contentBlockIndex: 1, delta: { text: "at 9:00 on weekdays" } }],
  ["contentBlockStop", { contentBlockIndex: 1 }],
  ["contentBlockDelta", { contentBlockIndex: 2, delta: { text: "." } }],
  ["contentBlockStop", { contentBlockIndex: 2 }],
  ["messageStop", { stopReason: "end_turn" }],
  ["metadata", { usage: { inputTokens: 300, outputTokens: 20, totalTokens: 320 }, metrics: { latencyMs: 700 } }],
]);
