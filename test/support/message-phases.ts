// What a Responses client reads of its message items' `phase`, for the tests of OpenAI Responses'
// message phase (test/node/responses-phase.test.ts, test/worker/responses-phase.test.ts), and the
// upstream stream of two messages back to back they read.
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

/** A recorded event: its fields read and rewritten as they come. */
type Event = Record<string, any>;

/** The second message of {@link backToBackMessages}: the final answer, right after the commentary. */
export const FINAL_TEXT = "Spudville is the capital of “PotatoLand.”";

/**
 * The recorded gpt-5.x turn (../shared/fixtures/openai-responses/text-then-function-call.sse:
 * reasoning, a `commentary` message, a call) with its call replaced by a `final_answer` message:
 * two messages back to back, as a model that answers without a call sends them. The second is
 * the first's events (their shape as recorded) with its own id, phase, text and positions.
 */
export function backToBackMessages(recorded: string): string {
  const events = recorded
    .split("\n\n")
    .filter((block) => block.includes("data: "))
    .map((block) => JSON.parse(block.slice(block.indexOf("data: ") + 6)) as Event);
  const at = (event: Event): number | undefined => event["output_index"];
  const commentary = events.filter((event) => at(event) === 1);
  const id = "msg_0fabc13af1ee0049006a691dff0c1481a1b4a0eec7e3c75400";
  const words = FINAL_TEXT.split(/(?= )/);
  const deltas = commentary.filter((event) => event["type"] === "response.output_text.delta");
  const final = commentary.flatMap((event) => {
    if (event["type"] === "response.output_text.delta")
      return event === deltas[0] ? words.map((delta) => ({ ...event, delta })) : [];
    const text = event["text"] === undefined ? {} : { text: FINAL_TEXT };
    const part = event["part"] && { part: { ...event["part"], text: event["part"].text === "" ? "" : FINAL_TEXT } };
    const content = event["item"]?.content.map((c: Record<string, unknown>) => ({ ...c, text: FINAL_TEXT }));
    const item = event["item"] && { item: { ...event["item"], id, phase: "final_answer", content } };
    return [{ ...event, item_id: event["item_id"] && id, output_index: 2, ...text, ...part, ...item }];
  });
  const kept = events.filter((event) => (at(event) ?? 0) < 2);
  const completed = kept.at(-1)!; // response.completed, with the output of the items done
  const output = [...kept, ...final].filter((e) => e["type"] === "response.output_item.done").map((e) => e["item"]);
  const all = [...kept.slice(0, -1), ...final, { ...completed, response: { ...completed["response"], output } }];
  return all
    .map(
      (event, sequence_number) => `event: ${event["type"]}\ndata: ${JSON.stringify({ ...event, sequence_number })}\n\n`,
    )
    .join("");
}
