/** Options of `OpenAIChatDecoder` and `OpenAIChatDeltaStream`; an option the stage does not know is a `TypeError`. */
export interface OpenAIChatDecoderOptions {
  /**
   * The writer of a call's arguments that a server gives as an object rather than as JSON text
   * (Hugging Face TGI, llama.cpp's server in some versions): `jsonText` (from
   * `tool-call-stream/core`) writes them with a stack of its own, so that arguments nested deeper
   * than `JSON.stringify` recurses are the accumulator's `too-deep` call, the stream going on.
   * Without it they are written by `JSON.stringify` (the same text), and such arguments end the
   * stream with an error of code `malformed-payload`, so that a bundle for the servers that send
   * arguments as text, as OpenAI does, holds no writer of its own. The main entry's
   * `streamToolCalls` passes it.
   * @defaultValue none: `JSON.stringify`
   */
  jsonText?: ((value: unknown) => string | undefined) | undefined;
  /**
   * Given each chunk the decoder parses whole (the fast path reads the plain text and argument
   * deltas without parsing them): a wrapper's way to read fields the decoder does not, such as
   * `ChatCitations`' `annotations`, without reading every message again.
   * @defaultValue none
   */
  onChunk?: ((chunk: Record<string, unknown>) => void) | undefined;
}

/** Every option of {@link OpenAIChatDecoderOptions}, typed as its keys. */
export const CHAT_OPTIONS: Record<keyof OpenAIChatDecoderOptions, 0> = { jsonText: 0, onChunk: 0 };
