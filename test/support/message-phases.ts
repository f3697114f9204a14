// What a Responses client reads of its message items' `phase`, for the tests of OpenAI Responses'
// message phase (test/node/responses-phase.test.ts, test/worker/responses-phase.test.ts).
import type OpenAI from "openai";

/**
 * Each message item's `phase` as openai-node's stream gives it: `[event type, phase]` for each
 * `output_item.added` and `.done` of a message, then the phases of the messages of
 * `response.completed`'s `output`.
 */
export async function messagePhases(stream: AsyncIterable<OpenAI.Responses.ResponseStreamEvent>): Promise<unknown[]> {
  const seen: unknown[] = [];
  for await (const event of stream)
    if (
      (event.type === "response.output_item.added" || event.type === "response.output_item.done") &&
      event.item.type === "message"
    )
      seen.push([event.type, event.item.phase]);
    else if (event.type === "response.completed")
      seen.push(event.response.output.flatMap((item) => (item.type === "message" ? [item.phase] : [])));
  return seen;
}
