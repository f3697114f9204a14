/**
 * The images and documents of a Messages request: `image` blocks (a `base64` or `url` source) and
 * `document` blocks (a base64 PDF, plain `text`, a `content` source's text, or a `url`), in a user
 * message or a `tool_result`'s content, as the Worker's file parts. A `file` source names a file stored at
 * Anthropic, which this Worker does not have: a 400. A `search_result` block as its text. And an
 * assistant's cited text blocks, kept, and its `tool_use` blocks as calls.
 *
 * @module
 */
import type { JsonValue, ReasoningPart } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { checkedWireFile, type WireFilePart } from "../../request/file-parts.ts";
import { base64OfText, fileIdError, fileOfUrl } from "../client-files.ts";
import { arrayAt, idAt, objectAt, stringAt, type WireMessage } from "../client-request.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { echoedCall } from "../thought-signatures.ts";
import { toolNameIn } from "../tool-names.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";

type WireCall = Extract<WireMessage, { role: "assistant" }>["tool_calls"][number];

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
  if ((kind === "text" || kind === "content") && !image) {
    const text = kind === "text" ? stringAt(own(source, "data"), `${path}.data`) : contentText(source, path);
    return checkedWireFile(
      { type: "file", media_type: "text/plain", data: base64OfText(text), ...name },
      path,
      provider,
    );
  }
  if (kind === "file") throw fileIdError(`${path}.file_id`);
  throw invalidField(
    `${path}.type`,
    image ? "An image's source is base64 or url." : "A document's source is base64, text, content or url.",
  );
}

/** A `content` source's text (`ContentBlockSource`: a string, or text blocks; an image there is a 400). */
function contentText(source: Record<string, unknown>, path: string): string {
  const content = own(source, "content");
  if (typeof content === "string") return content;
  return arrayAt(content, `${path}.content`)
    .map((block, i) => {
      const at = `${path}.content[${i}]`;
      if (own(objectAt(block, at), "type") !== "text")
        throw invalidField(`${at}.type`, "A document's content source takes text blocks here.");
      return stringAt(own(block as Record<string, unknown>, "text"), `${at}.text`);
    })
    .join("\n");
}

/**
 * An assistant's cited text block (`TextBlockParam.citations`) as the part that sends it back to
 * Anthropic as its own block with its citations (the library's request kit), or none.
 */
export function citedPart(block: Record<string, unknown>, text: string): ReasoningPart[] {
  const citations = own(block, "citations");
  if (text === "" || !Array.isArray(citations) || citations.length === 0) return [];
  return [{ type: "block", block: { type: "text", text, citations: citations as JsonValue[] } }];
}

/**
 * A `search_result` block (`SearchResultBlockParam`: a retrieval result's `title`, `source` and
 * text blocks, in a user message or a tool result) as the text the model reads: its title, its
 * source, then its text. Every provider gets it so (Anthropic too: a tool result or user message
 * carries no kept block), so Anthropic's citations of it are not given.
 */
export function searchResultText(block: Record<string, unknown>, at: string): string {
  const title = stringAt(own(block, "title"), `${at}.title`);
  const source = stringAt(own(block, "source"), `${at}.source`);
  const texts = arrayAt(own(block, "content"), `${at}.content`).map((entry, i) =>
    stringAt(own(objectAt(entry, `${at}.content[${i}]`), "text"), `${at}.content[${i}].text`),
  );
  return [`${title} (${source})`, ...texts].join("\n");
}

/**
 * An assistant's `tool_use` block as the call it was: its id (with any signature it carries), name
 * and input, and what goes back with it, on its `providerMetadata`: who made it (`caller`,
 * programmatic tool calling) and a toolset member's `toolset_name` (as `toolsetName`; the kit
 * gives its `tool_result` the same, BetaToolResultBlockParam's "toolset family of the paired tool_use").
 */
export function clientCall(block: Record<string, unknown>, at: string, provider: string): WireCall {
  const { id: known, providerMetadata } = echoedCall(idAt(own(block, "id"), `${at}.id`), provider, `${at}.id`);
  const caller = own(block, "caller");
  const toolset = own(block, "toolset_name");
  const metadata = {
    ...providerMetadata,
    ...(isObject(caller) && { caller: caller as JsonValue }),
    ...(toolset != null && { toolsetName: stringAt(toolset, `${at}.toolset_name`) }),
  };
  return {
    id: known,
    name: toolNameIn(own(block, "name"), `${at}.name`, upstreamProviders.anthropic.toolNames),
    arguments: (own(block, "input") ?? {}) as JsonValue,
    ...(Object.keys(metadata).length > 0 && { providerMetadata: metadata }),
  };
}
