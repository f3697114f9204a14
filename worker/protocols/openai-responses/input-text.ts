/**
 * The text of a Responses input item: a message's content and a reasoning item's summary.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { textThenRefusals } from "../../request/refused-text.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

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
