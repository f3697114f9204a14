import type { StreamErrorInfo } from "../shared/errors.ts";
import type { Repair } from "./arguments-buffer.ts";
import type { OpenToolCall, ToolCallRegistry } from "./tool-call-registry.ts";

/**
 * The error of a call open when a payload was skipped (`lost`), ended without the provider's final
 * text: it names the call (its id and tool name, never its arguments) and what may be missing. Its
 * code, `malformed-payload`, is what fails the turn (`finishEvent`) and what the encoders tell a
 * client of it (`failedFinish`).
 */
export const lostFragment = (call: { id: string | null; index: number; name: string }): StreamErrorInfo => ({
  code: "malformed-payload",
  message: `A payload was skipped while tool call ${call.id ?? `at index ${call.index}`} (${call.name}) streamed: its arguments may miss a fragment.`,
});

/**
 * Settles a call's arguments with the provider's final text (OpenAI Responses' `.done`, a whole
 * object sent again): when it extends what streamed (or nothing was shown: none streamed, LM
 * Studio's, or a call held unstarted), it is the call's, its rest a `delta`; else what streamed
 * stays the call's (the early check read it, a client was shown it), and a final text that is
 * another value, as the call's own parse (`repair` included) reads them, is an
 * `arguments-mismatch` error (where the texts first differ, the final text on `data`). The same
 * value written otherwise (spacing, member order, a repeated name the provider read once) is none.
 * Without a final text, what streamed is the call's. With one, a fragment a skipped payload may
 * have held (`lost`) is missing from none of them: it is the call's, or a mismatch.
 */
export function settle(
  call: OpenToolCall,
  final: string | undefined,
  registry: Pick<ToolCallRegistry, "newBuffer">,
  repair: Repair | undefined,
  delta: (tail: string) => void,
): StreamErrorInfo | undefined {
  const streamed = call.args.text;
  if (final === undefined) return undefined;
  delete call.lost;
  if (final === streamed) return undefined;
  if (!call.started || final.startsWith(streamed)) {
    call.args = registry.newBuffer();
    call.args.append(final);
    if (call.started) delta(final.slice(streamed.length));
    return undefined;
  }
  // The value as JSON with each object's members in order of their names: equal texts, equal values.
  const read = (text: string): string | undefined => {
    const args = registry.newBuffer();
    args.append(text);
    const parsed = args.parse({ repair, closeTruncated: false });
    return parsed.ok
      ? JSON.stringify(parsed.value, (_, value: unknown) =>
          value && typeof value === "object" && !Array.isArray(value)
            ? Object.fromEntries(Object.entries(value).sort())
            : value,
        )
      : undefined;
  };
  const value = read(streamed);
  if (value !== undefined && value === read(final)) return undefined;
  let position = 0;
  while (streamed[position] === final[position]) position++;
  const message = `The final tool arguments differ from the streamed ones (at offset ${position}).`;
  return { code: "arguments-mismatch", message, position, data: final };
}
