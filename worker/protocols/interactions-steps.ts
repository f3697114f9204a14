/**
 * Gemini Interactions' built-in tool steps across the agent protocols. The provider runs its
 * built-in tools (`google_search`, `code_execution`, `url_context`, MCP servers) and streams each
 * as a call step and a result step, which the library reports as a `providerExecuted` call with
 * both steps on its `providerMetadata` (`step`, `result`). No client protocol shows such a call
 * (a client runs every call it sees), yet the Interactions API gets the whole conversation back
 * on the next turn (the Worker sends no `previous_interaction_id`), those steps in their place. So
 * each step also goes out, where the call completed, as a `block` reasoning part: a Responses
 * client gets a `reasoning` item sealing it in its `encrypted_content`, a Messages client a
 * `thinking` block sealing it in its `signature` (worker/protocols/reasoning-state.ts), both of
 * which the clients send back unchanged, and the part they carry back goes to the Interactions
 * API as the step, in its place among the turn's thoughts
 * (src/providers/gemini-interactions/gemini-interactions-messages.ts). Chat Completions has no
 * field its clients echo that could hold them: `content` is the text users read, a call's `id`
 * exists only in a turn with a client call and a result step (search results, a fetched page) is
 * too long for one, and `reasoning_content` comes back only from thinking models' clients. There
 * the steps are not carried (nor are the thoughts), and the next turn goes without them, which
 * the API accepts (worker/README.md, "Opaque state").
 *
 * @module
 */
import type { EncodableEvent, JsonValue } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";

type Block = { [key: string]: JsonValue };

const isBlock = (value: unknown): value is Block =>
  typeof value === "object" && value !== null && !Array.isArray(value) && typeof (value as Block)["type"] === "string";

/** The steps a completed built-in call carries: its call step, then its result step. */
function stepsOf(event: EncodableEvent): Block[] {
  if (event.type !== "tool-call" || !event.providerExecuted) return [];
  const step = event.providerMetadata?.["step"];
  const result = event.providerMetadata?.["result"];
  return isBlock(step) ? (isBlock(result) ? [step, result] : [step]) : [];
}

/**
 * The events with each built-in call's steps before it, as `block` reasoning parts.
 *
 * @example
 * ```ts
 * const batches = interactionsStepParts(carrySignatures(events, carrier));
 * ```
 */
export function interactionsStepParts(
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  return mapChunks(batches, (batch): readonly EncodableEvent[] => {
    let out: EncodableEvent[] | undefined;
    batch.forEach((event, i) => {
      const steps = stepsOf(event);
      if (steps.length > 0) {
        out ??= batch.slice(0, i);
        for (const block of steps) out.push({ type: "reasoning-part", part: { type: "block", block } });
      }
      out?.push(event);
    });
    return out ?? batch;
  });
}
