/**
 * The images and files of a Chat Completions user message: `image_url` parts (a URL or a data URL,
 * with `detail`), `input_audio` (base64 WAV or MP3) and `file` parts (`file_data`, a data URL, with
 * its `filename`). A `file_id` names a file stored at OpenAI, which this Worker does not have: a 400.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { checkedWireFile, type WireFilePart, type WirePart } from "../../request/file-parts.ts";
import { fileIdError, fileOfData, fileOfUrl, mediaTypeOfName } from "../client-files.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

const AUDIO: Readonly<Record<string, string>> = { wav: "audio/wav", mp3: "audio/mpeg" };

/** A user message's content: its text when it holds text alone, else its parts in order (text and files). */
export function userContent(value: unknown, path: string, provider: string): string | WirePart[] {
  if (typeof value === "string") return value;
  const parts = arrayAt(value, path).map((entry, i): WirePart => {
    const at = `${path}[${i}]`;
    const part = objectAt(entry, at);
    const type = own(part, "type");
    if (type === "text") return { type: "text", text: stringAt(own(part, "text"), `${at}.text`) };
    if (type === "refusal") return { type: "text", text: stringAt(own(part, "refusal"), `${at}.refusal`) };
    if (type === "image_url")
      return imageOf(objectAt(own(part, "image_url"), `${at}.image_url`), `${at}.image_url`, provider);
    if (type === "input_audio")
      return audioOf(objectAt(own(part, "input_audio"), `${at}.input_audio`), `${at}.input_audio`, provider);
    if (type === "file") return fileOf(objectAt(own(part, "file"), `${at}.file`), `${at}.file`, provider);
    throw invalidField(`${at}.type`, "A content part is text, image_url, input_audio or file.");
  });
  if (parts.some((part) => part.type === "file")) return parts;
  return parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function imageOf(image: Record<string, unknown>, at: string, provider: string): WireFilePart {
  const detail = own(image, "detail") ?? undefined;
  if (detail !== undefined && detail !== "auto" && detail !== "low" && detail !== "high")
    throw invalidField(`${at}.detail`, "`detail` must be auto, low or high.");
  return fileOfUrl(
    stringAt(own(image, "url"), `${at}.url`),
    `${at}.url`,
    provider,
    "image/*",
    detail ? { detail } : {},
  );
}

function audioOf(audio: Record<string, unknown>, at: string, provider: string): WireFilePart {
  const format = own(audio, "format");
  // Own keys only: a format named `constructor` is none.
  const mediaType = typeof format === "string" && Object.hasOwn(AUDIO, format) ? AUDIO[format] : undefined;
  if (mediaType === undefined) throw invalidField(`${at}.format`, "`format` must be wav or mp3.");
  const data = stringAt(own(audio, "data"), `${at}.data`);
  return checkedWireFile({ type: "file", media_type: mediaType, data }, at, provider);
}

function fileOf(file: Record<string, unknown>, at: string, provider: string): WireFilePart {
  if (own(file, "file_id") !== undefined && own(file, "file_id") !== null) throw fileIdError(`${at}.file_id`);
  const filename = own(file, "filename") ?? undefined;
  const name = filename === undefined ? {} : { filename: stringAt(filename, `${at}.filename`) };
  const data = stringAt(own(file, "file_data"), `${at}.file_data`);
  const fallback = mediaTypeOfName(name.filename, "application/pdf");
  return fileOfData(data, `${at}.file_data`, provider, fallback, name);
}

/**
 * A message's text: a string, or its `text` and `refusal` parts (a refusal part goes to `refusals` instead when it is
 * given: an assistant message's); other parts (images, audio, files) are refused.
 */
export function textOf(value: unknown, path: string, refusals?: string[]): string {
  if (typeof value === "string") return value;
  return arrayAt(value, path)
    .map((part, i) => {
      const fields = objectAt(part, `${path}[${i}]`);
      if (own(fields, "type") === "text") return stringAt(own(fields, "text"), `${path}[${i}].text`);
      if (own(fields, "type") === "refusal") {
        const refusal = stringAt(own(fields, "refusal"), `${path}[${i}].refusal`);
        if (!refusals) return refusal;
        refusals.push(refusal);
        return "";
      }
      throw invalidField(
        `${path}[${i}].type`,
        "Only text parts are supported here (images and files: in a user message).",
      );
    })
    .join("");
}
