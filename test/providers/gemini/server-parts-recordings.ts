// A Gemini stream of Gemini 3's tool combination (issue 34), shared by its cases
// (gemini-rules.cases.ts) and by the next turn's check against @google/genai's types
// (test/node/next-turn-sdk-types.test.ts).
//
// Gemini 3's tool combination (`toolConfig.includeServerSideToolInvocations`): the server tool's
// `toolCall` and `toolResponse` parts ("The client is expected to echo this message back to the
// API", @google/genai 3.3's Part.toolCall) and code execution's `executableCode` /
// `codeExecutionResult`, each with its `id` and `thoughtSignature`, come before the function call.
// Built from the documented shape (the SDK's Part, ToolCall, ToolResponse, ExecutableCode types).

/** @google/genai's Part, which no dev dependency types here. */
export type Part = Record<string, unknown>;

/** The server tool's and code execution's parts, in the order they stream. */
export const serverParts: Part[] = [
  {
    toolCall: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", args: { queries: ["northernmost US city"] } },
    thoughtSignature: "sig-tool",
  },
  { toolResponse: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", response: { search_suggestions: "Utqiaġvik" } } },
  { executableCode: { id: "ec_1", language: "PYTHON", code: "print(71.29)" } },
  { codeExecutionResult: { id: "ec_1", outcome: "OUTCOME_OK", output: "71.29\n" } },
];

const parts = (list: unknown[], extra: Record<string, unknown> = {}): unknown => ({
  candidates: [{ content: { role: "model", parts: list }, ...extra }],
});

/** The SSE body: the server parts in two chunks, then a signed function call and `STOP`. */
export const combined: string = [
  parts(serverParts.slice(0, 2)),
  parts(serverParts.slice(2)),
  parts(
    [{ functionCall: { id: "fc_1", name: "getWeather", args: { city: "Utqiaġvik" } }, thoughtSignature: "sig-fc" }],
    { finishReason: "STOP" },
  ),
]
  .map((p) => `data: ${JSON.stringify(p)}\r\n\r\n`)
  .join("");
