/**
 * Images and files in a request: one part type for every client's (an OpenAI `input_image`, an
 * Anthropic `image` or `document` block, an AI SDK `file` part) and the helpers each provider's
 * request builder shares to write it in its own form. A file is its bytes as base64 or a URL the
 * provider fetches itself: nothing here fetches anything.
 *
 * @module
 */
import {
  answersServerCall,
  type Fields,
  type RequestContentPart,
  type RequestFilePart,
  type RequestMessage,
  requestError,
} from "./request.ts";
import type { ToolCallStreamError } from "../shared/errors.ts";

/** A message that may carry files: a user message or a tool result. */
type WithParts = Extract<RequestMessage, { role: "user" | "tool" }>;

/**
 * The message's content as parts: its `parts` when it has them, else its text as one part (none
 * when it is empty).
 *
 * @example
 * ```ts
 * contentParts({ role: "user", content: "Hi" }); // [{ type: "text", text: "Hi" }]
 * ```
 */
export function contentParts(message: WithParts): readonly RequestContentPart[] {
  if (message.parts) return message.parts;
  return message.content === "" ? [] : [{ type: "text", text: message.content }];
}

/** Whether the message carries a file. */
export function hasFiles(message: WithParts): boolean {
  return message.parts?.some((part) => part.type === "file") ?? false;
}

/** What a file is to a provider: an image, a PDF, plain text, audio, or another file. */
export function fileKind(part: RequestFilePart): "image" | "pdf" | "text" | "audio" | "video" | "other" {
  const type = part.mediaType.toLowerCase();
  if (type.startsWith("image/")) return "image";
  if (type === "application/pdf") return "pdf";
  if (type.startsWith("text/")) return "text";
  if (type.startsWith("audio/")) return "audio";
  return type.startsWith("video/") ? "video" : "other";
}

/** The file as one URL: its own, or a `data:` URL of its bytes (what OpenAI's and Cohere's image parts take). */
export function fileUrl(part: RequestFilePart): string {
  return part.source.type === "url" ? part.source.url : `data:${part.mediaType};base64,${part.source.data}`;
}

/**
 * An image as OpenAI Chat's and Cohere's `image_url` part, with its `detail`: `original` is OpenAI
 * Responses' alone (both answer it with a 400), so they are sent their closest, `high`.
 */
export function imageUrlPart(part: RequestFilePart): Record<string, unknown> {
  const detail = part.detail === "original" ? "high" : part.detail;
  return { type: "image_url", image_url: { url: fileUrl(part), ...(detail ? { detail } : {}) } };
}

/** A file's bytes as UTF-8 text (a plain-text document for a provider that takes its text). */
export function fileText(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/**
 * The `invalid-request` error of a file a provider cannot take, naming the part (`path`) and the
 * provider.
 */
export function fileRefused(provider: string, path: string, what: string): ToolCallStreamError {
  return requestError(path, `${provider} cannot take this file: ${what}.`);
}

/**
 * For a provider whose tool results hold text only (Chat Completions, Cohere, Ollama): each
 * result's files, taken out of it and sent in a user message right after the run of results, so
 * that the results still follow their calls with nothing between them. A result of a call the
 * provider ran is left out ({@link answersServerCall}). `pathOf` maps each message
 * of the outcome to the path of the message it came from (the files' message: the first result
 * with files), for errors.
 */
export function filesAfterResults(messages: readonly RequestMessage[]): {
  messages: RequestMessage[];
  pathOf: (index: number) => string;
} {
  const out: RequestMessage[] = [];
  const origin: string[] = [];
  let pending: { parts: RequestContentPart[]; path: string } | undefined;
  const flush = (): void => {
    if (!pending) return;
    out.push({ role: "user", content: "", parts: pending.parts });
    origin.push(pending.path);
    pending = undefined;
  };
  const served = answersServerCall(messages);
  messages.forEach((message, i) => {
    if (served(message)) return;
    if (message.role !== "tool") flush();
    if (message.role === "tool" && hasFiles(message)) {
      const parts = message.parts ?? [];
      const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      out.push({ ...message, content: text, parts: undefined });
      origin.push(`messages[${i}]`);
      pending ??= { parts: [], path: `messages[${i}]` };
      for (const part of parts) if (part.type === "file") pending.parts.push(part);
      return;
    }
    out.push(message);
    origin.push(`messages[${i}]`);
  });
  flush();
  return { messages: out, pathOf: (index) => origin[index] ?? `messages[${index}]` };
}

/** The parts of a tool result that a provider with parts in its results takes, as `blockOf` writes them. */
export function resultBlocks(
  message: WithParts,
  path: string,
  blockOf: (part: RequestContentPart, path: string) => Fields,
): Fields[] {
  return contentParts(message).map((part, j) => blockOf(part, `${path}.parts[${j}]`));
}
