import { ToolCallStreamError } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";

/** The blocks kept whole at their start, which carry no deltas: a server tool's result is one (`web_search_tool_result`, ...). */
const WHOLE = /^(fallback|mcp_tool_listing|container_upload)$|_tool_result$/;

/** A block kept whole until its stop: its index and the fields it came with, updated by its deltas. */
interface OpenBlock {
  index: number;
  block: { [key: string]: JsonValue };
}

/**
 * The blocks of Anthropic's turn that go back on the next request as they came, read from their
 * events: a `thinking` block's text and signature (a `reasoning-part` at its stop, when it was
 * signed), a `redacted_thinking` block's data (at its start), a `compaction` block (at its stop,
 * its summary and `encrypted_content` as the last `compaction_delta` gave them: the delta carries
 * the block's final value, as the SDK's accumulator assigns it; "Users should round-trip these
 * blocks", says its Param doc), a `fallback` block (at its start: it carries no deltas, and
 * goes back in its place, the boundary between two models' output), an `mcp_tool_listing` and a
 * `container_upload` block (at their start, sent back unchanged). Thinking text also streams
 * as `reasoning-delta`s.
 *
 * @example
 * ```ts
 * const kept = new AnthropicKeptBlocks();
 * kept.start(0, { type: "thinking", thinking: "" }, emit);
 * kept.delta(0, { type: "thinking_delta", thinking: "Let me check." }, emit);
 * kept.delta(0, { type: "signature_delta", signature: "EqQBCg..." }, emit);
 * kept.stop(0, emit); // a reasoning-part { type: "signed", text: "Let me check.", signature: "EqQBCg..." }
 * ```
 */
export class AnthropicKeptBlocks {
  /** The open thinking block: its index, text so far and signature (its text is kept only until its stop). */
  #thinking: { index: number; text: string; signature?: string } | undefined;
  /** The open compaction block. */
  #compaction: OpenBlock | undefined;
  /**
   * The characters the signatures' deltas may still take over the response (4 Mi): no delta
   * carries them, so no other limit counts them, and one that never ended grew without bound.
   */
  #room = 4194304;

  /** A block started; true when it is one of these. */
  start(index: number, block: Record<string, unknown>, emit: Emit): boolean {
    switch (block["type"]) {
      case "thinking": {
        const thinking = nonEmptyString(block["thinking"]);
        if (thinking) emit({ type: "reasoning-delta", text: thinking });
        const signature = nonEmptyString(block["signature"]);
        this.#thinking = { index, text: thinking ?? "", ...(signature && { signature }) };
        return true;
      }
      case "redacted_thinking": {
        const data = nonEmptyString(block["data"]);
        if (data) emit({ type: "reasoning-part", part: { type: "redacted", data } });
        return true;
      }
      case "compaction":
        this.#compaction = { index, block: jsonObject(block) };
        return true;
    }
    // A fallback block, an MCP server's tool listing ("Send the assistant message back unchanged,
    // this block included"), a file uploaded to the container, or a server tool's result, whole at
    // its start (wherever it comes: right after its call, or in a later response, a programmatic
    // tool calling continuation's `message_start`).
    if (!WHOLE.test(String(block["type"]))) return false;
    emit({ type: "reasoning-part", part: { type: "block", block: jsonObject(block) } });
    return true;
  }

  /** A delta of one of these blocks; true when it was one. */
  delta(index: number, delta: Record<string, unknown>, emit: Emit): boolean {
    const thinking = this.#thinking?.index === index ? this.#thinking : undefined;
    const compaction = this.#compaction?.index === index ? this.#compaction : undefined;
    const signature = nonEmptyString(delta["signature"]);
    switch (delta["type"]) {
      case "thinking_delta": {
        const text = nonEmptyString(delta["thinking"]);
        if (!text) return true;
        if (thinking) thinking.text += text;
        emit({ type: "reasoning-delta", text });
        return true;
      }
      case "signature_delta":
        if (!signature) return true;
        if ((thinking || compaction) && (this.#room -= signature.length) < 0)
          throw new ToolCallStreamError({
            code: "text-too-large",
            message: "The signatures held exceeded the limit of 4194304 characters.",
          });
        if (thinking) thinking.signature = `${thinking.signature ?? ""}${signature}`;
        if (compaction) compaction.block["signature"] = `${compaction.block["signature"] ?? ""}${signature}`;
        return true;
      case "compaction_delta":
        if (!compaction) return true;
        compaction.block["content"] = (delta["content"] ?? null) as JsonValue;
        if (Object.hasOwn(delta, "encrypted_content"))
          compaction.block["encrypted_content"] = (delta["encrypted_content"] ?? null) as JsonValue;
        return true;
    }
    return false;
  }

  /** A block stopped: a signed thinking block or a compaction block becomes its `reasoning-part`. */
  stop(index: number, emit: Emit): void {
    const thinking = this.#thinking;
    if (thinking?.index === index) {
      this.#thinking = undefined;
      if (thinking.signature !== undefined)
        emit({ type: "reasoning-part", part: { type: "signed", text: thinking.text, signature: thinking.signature } });
    }
    const compaction = this.#compaction;
    if (compaction?.index === index) {
      this.#compaction = undefined;
      emit({ type: "reasoning-part", part: { type: "block", block: compaction.block } });
    }
  }
}

/**
 * A server tool's result block (`web_search_tool_result`, `web_fetch_tool_result`,
 * `code_execution_tool_result`, `bash_code_execution_tool_result`,
 * `text_editor_code_execution_tool_result`, `tool_search_tool_result`, `mcp_tool_result`, ...):
 * its type ends in `_tool_result` and it names its call by `tool_use_id`.
 *
 * @example
 * ```ts
 * isServerResult({ type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] }); // true
 * ```
 */
export function isServerResult(block: Readonly<Record<string, unknown>>): boolean {
  return String(block["type"]).endsWith("_tool_result") && typeof block["tool_use_id"] === "string";
}

/**
 * What a call's block carries back besides its id, name and input: its `caller` (programmatic
 * tool calling: the model, or a code execution tool by id), a toolset member's `toolset_name`
 * (`toolsetName`: its tool_use and its tool_result go back with it), and for a server tool's call the
 * block's other fields (`anthropicBlock`: its `type`, an MCP call's `server_name`), so that the
 * next turn sends it back as it came.
 *
 * @example
 * ```ts
 * callMetadata({ type: "mcp_tool_use", id: "mcptoolu_1", name: "echo", input: {}, server_name: "tools" }, true);
 * // { providerMetadata: { anthropicBlock: { type: "mcp_tool_use", server_name: "tools" } } }
 * ```
 */
export function callMetadata(
  block: Record<string, unknown>,
  providerExecuted: boolean,
): { providerMetadata?: Record<string, unknown> } {
  const { id: _id, name: _name, input: _input, caller, toolset_name, ...anthropicBlock } = block;
  const metadata: Record<string, unknown> = providerExecuted ? { anthropicBlock } : {};
  if (isRecord(caller)) metadata["caller"] = caller;
  if (typeof toolset_name === "string") metadata["toolsetName"] = toolset_name;
  return providerExecuted || Object.keys(metadata).length > 0 ? { providerMetadata: metadata } : {};
}

/** A block's fields as JSON (it came from `JSON.parse`, so every value is one). */
function jsonObject(block: Record<string, unknown>): { [key: string]: JsonValue } {
  return { ...block } as { [key: string]: JsonValue };
}
