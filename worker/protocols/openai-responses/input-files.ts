/**
 * The images and files of a Responses input: `input_image` (`image_url`, a URL or a data URL, with
 * its `detail`: `original`, which Codex's `view_image` sends, goes to an OpenAI Responses upstream
 * as it came and to the others as `high`, their closest) and `input_file` (`file_data` with its `filename`, or `file_url`) in a user
 * message's content or a `function_call_output`'s output. A `file_id` names a file stored at
 * OpenAI, which this Worker does not have: a 400.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import type { WireFilePart, WirePart } from "../../request/file-parts.ts";
import { arrayAt, objectAt, resultText, stringAt, type WireMessage } from "../client-request.ts";
import { fileIdError, fileOfData, fileOfUrl, mediaTypeOfName } from "../client-files.ts";

/** A Responses content list's parts: text (`input_text`, `output_text`, `text`, `refusal`) and files, in order. */
export function inputParts(value: unknown, path: string, provider: string): WirePart[] {
  return arrayAt(value, path).map((entry, i): WirePart => {
    const at = `${path}[${i}]`;
    const part = objectAt(entry, at);
    const type = own(part, "type");
    if (type === "input_text" || type === "output_text" || type === "text")
      return { type: "text", text: stringAt(own(part, "text"), `${at}.text`) };
    if (type === "refusal") return { type: "text", text: stringAt(own(part, "refusal"), `${at}.refusal`) };
    if (type === "input_image") return imageOf(part, at, provider);
    if (type === "input_file") return fileOf(part, at, provider);
    throw invalidField(`${at}.type`, "A content part is input_text, input_image or input_file.");
  });
}

/**
 * A `function_call_output` as a tool message: its output's text (a string, JSON as text, or its
 * text parts joined) and the files of its parts. Without an output it is a 400 at `path`, as
 * OpenAI answers it (the provider was sent the result `null`).
 */
export function outputMessage(id: string, output: unknown, path: string, provider: string): WireMessage {
  if (output === undefined || output === null)
    throw invalidField(path, "A call's output is required: a string or an array of content parts.");
  if (!Array.isArray(output)) return { role: "tool", tool_call_id: id, content: resultText(output) };
  const parts = inputParts(output, path, provider);
  const files = parts.flatMap((part) => (part.type === "file" ? [part] : []));
  return { role: "tool", tool_call_id: id, content: joinedText(parts), ...(files.length > 0 ? { files } : {}) };
}

/** Whether parts hold a file. */
export function withFiles(parts: readonly WirePart[]): boolean {
  return parts.some((part) => part.type === "file");
}

/** Parts' text, joined as a message's text was before parts (no separator). */
export function joinedText(parts: readonly WirePart[]): string {
  return parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

function imageOf(part: Record<string, unknown>, at: string, provider: string): WireFilePart {
  if (own(part, "file_id") !== undefined && own(part, "file_id") !== null) throw fileIdError(`${at}.file_id`);
  const detail = own(part, "detail") ?? undefined;
  if (detail !== undefined && detail !== "auto" && detail !== "low" && detail !== "high" && detail !== "original")
    throw invalidField(`${at}.detail`, "`detail` must be auto, low, high or original.");
  const url = stringAt(own(part, "image_url"), `${at}.image_url`);
  return fileOfUrl(url, `${at}.image_url`, provider, "image/*", detail === undefined ? {} : { detail });
}

function fileOf(part: Record<string, unknown>, at: string, provider: string): WireFilePart {
  if (own(part, "file_id") !== undefined && own(part, "file_id") !== null) throw fileIdError(`${at}.file_id`);
  const filename = own(part, "filename") ?? undefined;
  const name = filename === undefined ? {} : { filename: stringAt(filename, `${at}.filename`) };
  const fileUrl = own(part, "file_url") ?? undefined;
  if (fileUrl !== undefined)
    return fileOfUrl(stringAt(fileUrl, `${at}.file_url`), `${at}.file_url`, provider, "application/octet-stream", name);
  const data = stringAt(own(part, "file_data"), `${at}.file_data`);
  // `file_data` is a data URL as OpenAI's examples send it, or bare base64 typed by its name.
  return fileOfData(
    data,
    `${at}.file_data`,
    provider,
    mediaTypeOfName(name.filename, "application/octet-stream"),
    name,
  );
}
