/** An open step of the interaction, by its `index` (`GeminiInteractionsDecoder`'s). */
export type OpenStep =
  | { kind: "call"; streamed: boolean; initial?: string | undefined; whole?: string | undefined }
  | { kind: "thought"; text: string; signature?: string | undefined };

/**
 * What a wrapper of `GeminiInteractionsDecoder` is given of each event before the decoder
 * reads it (its type, its step's index, its payload): `InteractionsCitations` reads the text
 * annotations so, without parsing the event again.
 *
 * @example
 * ```ts
 * const onEvent: InteractionsEventListener = (type, index) => {
 *   if (type === "step.start") started.push(index);
 * };
 * ```
 */
export type InteractionsEventListener = (
  type: string | undefined,
  index: number | undefined,
  payload: Record<string, unknown>,
) => void;

/** The fields a delta may carry an argument fragment in: `arguments_delta` documents `arguments`; `partial_arguments` is the docs' other spelling. */
export const FRAGMENT_FIELDS = ["arguments", "partial_arguments", "arguments_delta"] as const;
