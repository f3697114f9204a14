/**
 * The text of a Responses input item: a message's content and a reasoning item's summary.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { textThenRefusals } from "../../request/refused-text.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/** The parts only the model writes: in a user, system or developer message, a 400. */
const MODEL_PARTS: ReadonlySet<unknown> = new Set(["output_text", "refusal"]);
/** The parts only a client sends that an assistant message cannot hold: a 400 there. */
const CLIENT_MEDIA: ReadonlySet<unknown> = new Set(["input_image", "input_file"]);

/**
 * Refuses a client's message holding a part of the other side, as OpenAI does (a 400 at
 * `input[n].content[i]`, "Invalid value: 'input_image'. Supported values are: 'output_text' and
 * 'refusal'."): a user, system or developer message's `output_text` or `refusal` (Open Responses'
 * `UserMessageItemParam` takes `input_text`, `input_image` and `input_file`, its system and
 * developer items `input_text`; a gateway that took them would let a client pass its own words
 * off as the model's to an upstream that reads the part's type), and an assistant message's image
 * or file. An assistant's `input_text` is taken, though OpenAI refuses it: openai-node's own
 * `EasyInputMessage` type allows input parts in any role, and clients send them so.
 */
export function checkInputRole(role: unknown, content: unknown, path: string): void {
  if (!Array.isArray(content)) return;
  const refused = role === "assistant" ? CLIENT_MEDIA : MODEL_PARTS;
  const i = content.findIndex((part) => isObject(part) && refused.has(own(part, "type")));
  if (i === -1) return;
  const type = own(content[i] as Record<string, unknown>, "type");
  throw invalidField(
    `${path}.content[${i}]`,
    role === "assistant"
      ? `An assistant message holds \`output_text\` and \`refusal\` parts, not \`${type}\`: send images and files in a user message.`
      : `An \`${type}\` part is the model's: only an assistant message holds one (send \`input_text\`).`,
  );
}

/**
 * Refuses a client's reasoning item whose `summary` is not a list of `summary_text` parts (Open
 * Responses' `ReasoningItemParam`), as OpenAI does, a 400 at the field: else a string summary
 * would be dropped without a word. `null` is absent, as everywhere in a request.
 */
export function checkSummary(summary: unknown, path: string): void {
  if (summary === undefined || summary === null) return;
  if (!Array.isArray(summary)) throw invalidField(path, "`summary` must be an array of `summary_text` parts.");
  summary.forEach((part, i) => {
    const fields = objectAt(part, `${path}[${i}]`);
    if (own(fields, "type") !== "summary_text")
      throw invalidField(`${path}[${i}].type`, "A summary part's `type` must be `summary_text`.");
    stringAt(own(fields, "text"), `${path}[${i}].text`);
  });
}

/** A reasoning item's summary as text (its `summary_text` parts), which Ollama takes back as `thinking`. */
export function summaryText(summary: unknown): string {
  if (!Array.isArray(summary)) return "";
  return summary
    .flatMap((part) => (isObject(part) && typeof own(part, "text") === "string" ? [own(part, "text") as string] : []))
    .join("\n");
}

/**
 * A message's text: a string, or its text parts (`input_text`, `output_text`, `text`) and its
 * `refusal` parts, each of which goes to `refusal` instead when it is given (an assistant's: taken back
 * or left out), else after the text (`textThenRefusals`).
 */
export function textOf(value: unknown, path: string, refusal?: (text: string) => void): string {
  if (typeof value === "string") return value;
  const refused: string[] = [];
  const text = arrayAt(value, path)
    .map((part, i) => {
      const fields = objectAt(part, `${path}[${i}]`);
      const type = own(fields, "type");
      if (type === "input_text" || type === "output_text" || type === "text")
        return stringAt(own(fields, "text"), `${path}[${i}].text`);
      if (type === "refusal") {
        const text = stringAt(own(fields, "refusal"), `${path}[${i}].refusal`);
        refusal ? refusal(text) : refused.push(text);
        return "";
      }
      throw invalidField(
        `${path}[${i}].type`,
        "Only text parts are supported here (images and files: in a user message or a call output).",
      );
    })
    .join("");
  return textThenRefusals(text, refused);
}
