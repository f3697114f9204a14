import type { Usage } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";
import { addInputApart } from "../usage.ts";

/**
 * The first candidate's grounding and citations (Google Search grounding, recitations): its
 * `groundingMetadata` (`webSearchQueries`, `searchEntryPoint`, `groundingChunks`,
 * `groundingSupports`), `citationMetadata` and the URL context tool's `urlContextMetadata`
 * (`urlMetadata`: each `retrievedUrl` and its `urlRetrievalStatus`), each as the last chunk that had
 * it gave it (a chunk that carries one carries all of it so far; a trailing chunk may carry usage
 * alone), become at the response's end `block` reasoning parts `{ groundingMetadata }`,
 * `{ citationMetadata }` and `{ urlContextMetadata }`, for the app (`finish.reasoningParts`): Gemini's next-turn `Content` has no field for them, so no next turn
 * sends them back. Only the latest of each is held, until a `CONTINUATION` finish gives it out (a
 * continuation's chunks give their own, whose indexes count its own text). The server tools'
 * prompt, which Gemini counts apart from the prompt (`toolUsePromptTokenCount`), is counted in the
 * usage's input.
 *
 * A plug-in of `GeminiDecoder` (its third argument), which `GeminiDeltaStream` and the main entry's
 * `streamToolCalls` (`provider: "gemini"`) give it; `tool-call-stream/gemini`'s `streamToolCalls`
 * reads without it, so that its bundle stays within its budget (that subpath's stage chain,
 * `GeminiDeltaStream`, keeps them; without it, the usage's input leaves the server tools' prompt out).
 *
 * @example
 * ```ts
 * const decoder = new GeminiDecoder((delta) => deltas.push(delta), {}, new GeminiGrounding());
 * ```
 */
export class GeminiGrounding {
  /** The latest `{ groundingMetadata }`, `{ citationMetadata }` and `{ urlContextMetadata }`, by key. */
  #sources: { [key: string]: { [key: string]: JsonValue } } = {};

  /**
   * A candidate of a chunk: the first candidate's metadata replaces what an earlier chunk gave. Its
   * `CONTINUATION` finish gives out what was kept (before the finish): a continuation read on
   * (the Worker's) grounds its own text with its own.
   */
  candidate(candidate: Record<string, unknown>, choice: number, emit: Emit): void {
    if (choice !== 0) return;
    for (const key of ["groundingMetadata", "citationMetadata", "urlContextMetadata"])
      if (isRecord(candidate[key])) this.#sources[key] = { [key]: candidate[key] as JsonValue };
    if (candidate["finishReason"] === "CONTINUATION") this.end(emit);
  }

  /**
   * Counts in a chunk's usage (its `raw` the chunk's `usageMetadata`) the prompt of the server tools
   * as input: Gemini counts it apart from the prompt (`toolUsePromptTokenCount`), though it is input
   * (billed so, and in `totalTokenCount`).
   */
  usage(usage: Usage): void {
    addInputApart(usage, "toolUsePromptTokenCount", "totalTokenCount");
  }

  /**
   * The response ended (or its request did: a `CONTINUATION` finish, after which a continuation's
   * chunks give their own): what was kept goes out, each a `block` part, and is kept no more.
   */
  end(emit: Emit): void {
    for (const block of Object.values(this.#sources)) emit({ type: "reasoning-part", part: { type: "block", block } });
    this.#sources = {};
  }
}
