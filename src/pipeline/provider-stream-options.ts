import type { ConverseCitations } from "../providers/bedrock/bedrock-citations.ts";
import type { InvokeModelDecoder } from "../providers/bedrock/bedrock-delta-stream.ts";
import type { ResponsesBuiltInCalls } from "../providers/openai-responses/openai-responses-built-in-calls.ts";

// The plug-in options of the provider subpaths' `streamToolCalls` (provider-stream-tool-calls.ts).

/** The options of Bedrock's `streamToolCalls` and `streamToolCallBatches` beside the others. */
export interface BedrockOptions {
  /**
   * The decoder of InvokeModelWithResponseStream's chunks (Claude's Anthropic Messages events):
   * pass `AnthropicDecoder` (from `tool-call-stream/bedrock`). Without it, ConverseStream is read
   * and an InvokeModel body ends at its first chunk with an `error` of code `unknown-provider`
   * naming the plug-in (then an `abort`), so that a bundle that reads ConverseStream alone holds
   * no Anthropic decoder. The main entry's `streamToolCalls` (`provider: "bedrock"`) reads both.
   * @defaultValue none
   */
  invokeModel?: InvokeModelDecoder | undefined;
  /**
   * The reader of ConverseStream's citations: pass `ConverseCitations` (from
   * `tool-call-stream/bedrock`) to keep a cited text block as its `citationsContent` block part. The
   * main entry's `streamToolCalls` keeps them.
   * @defaultValue none: left out
   */
  converseCitations?: typeof ConverseCitations | undefined;
}

/** The options of OpenAI Chat's `streamToolCalls` and `streamToolCallBatches` beside the others. */
export interface OpenAIChatOptions {
  /**
   * The writer of arguments a server gives as an object (TGI): `jsonText` (from
   * `tool-call-stream/core`) writes them with a stack of its own, so that arguments nested thousands
   * deep are an `invalid-tool-call` of code `too-deep`; without it `JSON.stringify` writes the same
   * text, and ends the stream on those with a `malformed-payload` error. The main entry passes it.
   * @defaultValue none: `JSON.stringify`
   */
  jsonText?: ((value: unknown) => string | undefined) | undefined;
}

/** The options of OpenAI Responses' `streamToolCalls` and `streamToolCallBatches` beside the others. */
export interface OpenAIResponsesOptions {
  /**
   * The reader of the built-in tools' items as calls (`apply_patch_call`, `shell_call`,
   * `local_shell_call` that Codex runs, `mcp_call`, `tool_search_call`): pass
   * `ResponsesBuiltInCalls` (from `tool-call-stream/openai-responses`), or `ResponsesCitations` (the
   * text's annotations kept too). Without it, such an item ends the stream with an `error` of code
   * `unknown-provider` naming the plug-in (then an `abort`), so that a bundle that reads function
   * calls alone holds no reader of them. The main entry's reads them all, and keeps the annotations.
   * @defaultValue none
   */
  builtInCalls?: typeof ResponsesBuiltInCalls | undefined;
}
