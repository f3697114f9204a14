/**
 * The images and documents of a Messages request: `image` blocks (a `base64` or `url` source) and
 * `document` blocks (a base64 PDF, plain `text`, or a `url`), in a user message or a
 * `tool_result`'s content, as the Worker's file parts. A `file` source names a file stored at
 * Anthropic, which this Worker does not have: a 400.
 *
 * @module
 */
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { checkedWireFile, type WireFilePart } from "../../request/file-parts.ts";
import { base64OfText, fileIdError, fileOfUrl } from "../client-files.ts";
import { objectAt, stringAt } from "../client-request.ts";

/** Whether a block is an image or a document. */
export function isFileBlock(type: unknown): boolean {
  return type === "image" || type === "document";
}

/** An `image` or `document` block as a file part for `provider`, or a 400 naming the field at fault. */
export function fileOfBlock(block: Record<string, unknown>, at: string, provider: string): WireFilePart {
  const image = own(block, "type") === "image";
  const source = objectAt(own(block, "source"), `${at}.source`);
  const kind = own(source, "type");
  const title = own(block, "title");
  const name = typeof title === "string" && title !== "" ? { filename: title } : {};
  const path = `${at}.source`;
  if (kind === "base64") {
    const mediaType = stringAt(own(source, "media_type"), `${path}.media_type`);
    const data = stringAt(own(source, "data"), `${path}.data`);
    return checkedWireFile({ type: "file", media_type: mediaType, data, ...name }, path, provider);
  }
  if (kind === "url")
    return fileOfUrl(
      stringAt(own(source, "url"), `${path}.url`),
      path,
      provider,
      image ? "image/*" : "application/pdf",
      name,
    );
  if (kind === "text" && !image) {
    const text = stringAt(own(source, "data"), `${path}.data`);
    return checkedWireFile(
      { type: "file", media_type: "text/plain", data: base64OfText(text), ...name },
      path,
      provider,
    );
  }
  if (kind === "file") throw fileIdError(`${path}.file_id`);
  throw invalidField(
    `${path}.type`,
    image ? "An image's source is base64 or url." : "A document's source is base64, text or url.",
  );
}
