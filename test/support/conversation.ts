import type { Provider } from "../../src/index.ts";

/**
 * A recorded multi-step tool conversation: each request the client sent (step 2 and later carry
 * the tool results) and the provider's streamed answer to it, verbatim, from one recorded
 * exchange. The first step ends in tool calls, the last in a text answer.
 */
export interface RecordedConversation {
  /** A short name. */
  name: string;
  /** The library's name of the wire protocol. */
  provider: Provider;
  /** Where the recording comes from (repository, commit, path). */
  source: string;
  /** Words of a prompt it answers (lower case). */
  keywords?: readonly string[];
  /** The exchanges in order. */
  steps: readonly RecordedStep[];
}

/** One request of a recorded conversation and the provider's answer to it. */
export interface RecordedStep {
  /** The request body as it was sent. */
  request: unknown;
  /** The streamed response body (Server-Sent Events), exactly as received. */
  response: string;
}
