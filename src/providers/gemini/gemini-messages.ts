import { own, type AssistantTurn, type ToolResult } from "../turn.ts";

/**
 * Gemini: a `model` content of a text part and `functionCall` parts, each with its thought signature
 * (the text part with the signature of a part that was not a call, which Gemini asks back in its part).
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "gemini" })) {
 *   if (event.type === "finish") contents.push(geminiModelContent(event));
 * }
 * ```
 */
export function geminiModelContent(turn: AssistantTurn): Record<string, unknown> {
  let signature: string | undefined;
  for (const part of turn.reasoningParts ?? []) if (part.type === "signed") signature = part.signature;
  const parts: Record<string, unknown>[] = turn.text
    ? [{ text: turn.text, ...(signature !== undefined ? { thoughtSignature: signature } : {}) }]
    : [];
  for (const call of own(turn.toolCalls)) parts.push(functionCallPart(call, call.arguments));
  return { role: "model", parts };
}

/**
 * Gemini: a `user` content of `functionResponse` parts (the response must be an object).
 *
 * @example
 * ```ts
 * contents.push(geminiFunctionResponseContent([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function geminiFunctionResponseContent(results: readonly ToolResult[]): Record<string, unknown> {
  return {
    role: "user",
    parts: results.map((result) => {
      const { output } = result;
      const response = result.isError
        ? { error: output }
        : output !== null && typeof output === "object" && !Array.isArray(output)
          ? output
          : { result: output };
      return {
        functionResponse: {
          name: result.call.name,
          ...(result.call.id !== null ? { id: result.call.id } : {}),
          response,
        },
      };
    }),
  };
}

/** A call of an earlier turn as a `functionCall` part, with the `args` given. */
export function functionCallPart(
  call: {
    readonly id: string | null;
    readonly name: string;
    readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
  },
  args: unknown,
): Record<string, unknown> {
  const signature = call.providerMetadata?.["thoughtSignature"];
  return {
    functionCall: { name: call.name, args, ...(call.id !== null ? { id: call.id } : {}) },
    // Gemini 3 refuses a function call sent back without the thought signature it came with.
    ...(typeof signature === "string" ? { thoughtSignature: signature } : {}),
  };
}
