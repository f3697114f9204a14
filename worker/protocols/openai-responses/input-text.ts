/**
 * The text of a Responses input item: a message's content and a reasoning item's summary.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { textThenRefusals } from "../../request/refused-text.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/**
 * Refuses a client's user, system or developer message holding an `output_text` part, as OpenAI
 * does (a 400 at `input[n].content[i]`): only an assistant's text is output (Open Responses'
 * `UserMessageItemParam` takes `input_text`, `input_image` and `input_file`, its system and
 * developer items `input_text`), and a gateway that took it would let a client pass its own words
 * off as the model's to an upstream that reads the part's type.
 */
export function checkInputRole(role: unknown, content: unknown, path: string): void {
  if (role === "assistant" || !Array.isArray(content)) return;
  const i = content.findIndex((part) => isObject(part) && own(part, "type") === "output_text");
  if (i !== -1)
    throw invalidField(
      `${path}.content[${i}]`,
      "An `output_text` part is the model's: only an assistant message holds one (send `input_text`).",
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
