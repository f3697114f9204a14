import type { JsonValue } from "../../../src/index.ts";

// Gemini streams built from the providers' docs and SDK types (issue 34's review), shared by
// gemini-doc-shapes.cases.ts and the next turns' check against @google/genai's types
// (test/node/next-turn-sdk-types.test.ts). Each says where its shape comes from.

/** Gemini SSE: one `data:` line per GenerateContentResponse, CRLF framed as the API sends it. */
export const gemini = (...payloads: unknown[]): string =>
  payloads.map((p) => `data: ${JSON.stringify(p)}\r\n\r\n`).join("");
export const parts = (list: unknown[], extra: Record<string, unknown> = {}): unknown => ({
  candidates: [{ content: { role: "model", parts: list }, ...extra }],
});

// Vertex AI streamed arguments (`toolConfig.functionCallingConfig.streamFunctionCallArguments`):
// the FunctionCall proto (google/cloud/aiplatform/v1/tool.proto; @google/genai 3.3.0's
// `FunctionCall`) says of `willContinue`: "Whether this is the last part of the FunctionCall. If
// true, another partial message for the current FunctionCall is expected to follow". The captures
// (../shared/external-fixtures/vercel-ai/gemini/*stream-tool-call-arguments*) continue without a
// name and close with an empty `functionCall`; python-genai's history of such a turn
// (google/genai/tests/chats/test_send_message_stream_function_call_arguments.py,
// `previous_generate_content_history`) repeats the `name` on the continuation, which carries the
// `partialArgs` and `willContinue: false` (the last part, no empty one after it).
export const repeatedName: string = gemini(
  parts([{ functionCall: { name: "get_current_weather", willContinue: true }, thoughtSignature: "c2ln" }]),
  parts([
    {
      functionCall: {
        name: "get_current_weather",
        partialArgs: [{ jsonPath: "$.location", stringValue: "Boston", willContinue: true }],
        willContinue: true,
      },
    },
  ]),
  parts([
    {
      functionCall: {
        name: "get_current_weather",
        partialArgs: [{ jsonPath: "$.country", nullValue: "NULL_VALUE" }],
        willContinue: false,
      },
    },
  ]),
  parts([{ functionCall: { name: "get_current_weather", args: { location: "Paris", country: "FR" } } }], {
    finishReason: "STOP",
  }),
);

// Gemini 3 image models (Nano Banana Pro, gemini-3-pro-image): "Responses can include a
// thought_signature field within any content part" and for Gemini 3 Pro Image "you must still
// return the thought signatures from previous responses in your subsequent requests" (Vertex AI,
// docs/thought-signatures, "Example of multi-turn image editing using thought signatures"); the
// Gemini API's image-generation guide signs the first image part after the thoughts. The part is
// @google/genai 3.3.0's `Part` with `inlineData: Blob` (`mimeType`, `data`) and `thoughtSignature`.
export const image: { [key: string]: JsonValue } = {
  inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" },
  thoughtSignature: "c2lnLWltYWdl",
};
export const imageTurn: string = gemini(
  parts([{ text: "Here is the cat.", thoughtSignature: "c2lnLXRleHQ=" }]),
  parts([image]),
  parts([{ inlineData: { mimeType: "image/png", data: "AAAA" } }], { finishReason: "STOP" }),
);
