// One call's arguments pushed to an accumulator in fragments, as the hostile benches feed it.
import type { ProviderDelta } from "../src/index.ts";

/** `text` pushed to `accumulator` in fragments of `fragment` characters as call `c0` of tool `t`, then the finish and the end. */
export function pushCall(
  accumulator: { push(delta: ProviderDelta): void; end(): void },
  text: string,
  fragment = 4096,
): void {
  for (let at = 0; at < text.length; at += fragment)
    accumulator.push({
      type: "tool-call-chunk",
      index: 0,
      argumentsDelta: text.slice(at, at + fragment),
      ...(at === 0 ? { id: "c0", name: "t" } : {}),
    });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
}
