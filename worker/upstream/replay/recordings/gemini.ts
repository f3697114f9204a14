// Recorded provider streams replayed when no provider key is configured. Copied from
// shared/fixtures (see its README.md); each event is kept byte-for-byte with its framing.
import type { Recording } from "../recording.ts";

/** Recorded `gemini` streams; the first is the default. */
export const geminiRecordings: readonly Recording[] = [
  {
    // Source (gemini/parallel-function-calls-single-chunk.sse), from shared/fixtures/README.md:
    // | `gemini/parallel-function-calls-single-chunk.sse` | gemini | gemini-2.5-flash; two functionCall parts (same function, different args) in ONE chunk; no ids; finishReason STOP | [prism-php/prism `tests/Fixtures/gemini/stream-common-conversation-with-history-4.json`](https://github.com/prism-php/prism/blob/165e91c1ae12d55b49b24a408727a66df8be8558/tests/Fixtures/gemini/stream-common-conversation-with-history-4.json) | no (raw SSE body as stored) | real recording; line endings restored to CRLF (Gemini wire framing; source file stores LF) |
    name: "parallel-function-calls-single-chunk",
    keywords: ["san diego", "las vegas"],
    tools: ["weather"],
    events: [
      'data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "weather","args": {"city": "San Diego"}}},{"functionCall": {"name": "weather","args": {"city": "Las Vegas"}}}],"role": "model"},"finishReason": "STOP","index": 0}],"usageMetadata": {"promptTokenCount": 359,"candidatesTokenCount": 28,"totalTokenCount": 436,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 359}],"thoughtsTokenCount": 49},"modelVersion": "gemini-2.5-flash","responseId": "FtJdaL6yLe6Fz7IP2uCB2AE"}\r\n\r\n',
    ],
  },
  {
    // Source (gemini/function-call-gemini-2.0-flash.sse), from shared/fixtures/README.md:
    // | `gemini/function-call-gemini-2.0-flash.sse` | gemini | gemini-2.0-flash; whole function call (name + args object) in a single SSE event with finishReason; CRLF framing | [pydantic/pydantic-ai `tests/models/cassettes/test_google/test_google_model_iter_stream.yaml (interaction 0)`](https://github.com/pydantic/pydantic-ai/blob/4fda38988f2939fa6ea9cdefcf120693e10ef491/tests/models/cassettes/test_google/test_google_model_iter_stream.yaml) | no (raw SSE body as stored) | real recording |
    name: "function-call-gemini-2.0-flash",
    keywords: ["capital", "france", "paris"],
    tools: ["get_capital"],
    events: [
      'data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_capital","args": {"country": "France"}}}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 52,"candidatesTokenCount": 5,"totalTokenCount": 57,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 52}],"candidatesTokensDetails": [{"modality": "TEXT","tokenCount": 5}]},"modelVersion": "gemini-2.0-flash","responseId": "1lpeaMTxIpW1nvgP-O3vwQY"}\r\n\r\n',
    ],
  },
];
