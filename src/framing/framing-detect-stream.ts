import { framingOptions } from "./framing-options.ts";
import { AwsEventStreamDecoder } from "./aws-event-stream-decoder-stream.ts";
import { FramingStream, type FramingClass, type FramingOptions } from "./framing.ts";
import { isSpace } from "../shared/json-literal.ts";
import { detectTextFraming, TextFraming } from "./text-framing.ts";

/**
 * The framing of a body, from its content type and its first byte that is not white space:
 *
 * - `application/vnd.amazon.eventstream`, or a first byte that is a control character (an event
 *   stream's first byte is the high byte of a message length, 0 for any message under 16 MiB):
 *   the AWS event stream;
 * - `[`: a JSON array (Gemini without `alt=sse`);
 * - `{`: NDJSON (Ollama), or, when the content type is `application/json`, the JSON array framing,
 *   which reads a bare object (or several) as one message each;
 * - anything else: Server-Sent Events.
 *
 * The bytes decide between the text framings rather than the content type alone, so a gateway
 * that labels an SSE body `application/json` still has it read as SSE.
 *
 * @example
 * ```ts
 * detectFraming("application/x-ndjson", "{".charCodeAt(0)); // NdjsonDecoder
 * detectFraming(undefined, "d".charCodeAt(0)); // SSEDecoder ("data: ...")
 * ```
 */
export function detectFraming(contentType: string | undefined, firstByte: number): FramingClass {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type === "application/vnd.amazon.eventstream" || (firstByte < 0x20 && !isSpace(firstByte)))
    return AwsEventStreamDecoder;
  return detectTextFraming(contentType, firstByte);
}

/**
 * The framing stage when the framing is not known in advance: it waits for the first byte that is
 * not white space, picks the framing by {@link detectFraming} (with `contentType` when given),
 * and reads the whole body with it.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new FramingDetectStream({ contentType: response.headers.get("content-type") ?? undefined }))
 *   .pipeThrough(new ProviderDetectStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class FramingDetectStream extends FramingStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: FramingOptions = {}) {
    super(DetectingFraming, framingOptions(options));
  }
}

/**
 * The synchronous core of {@link FramingDetectStream}: a {@link Framing} for any of the built-in
 * framings, told from the content type and the first bytes. White space before the first byte
 * that tells is held (up to `maxEventLength`) and given to the framing chosen.
 *
 * @example
 * ```ts
 * const messages: FramedMessage[] = [];
 * const framing = new DetectingFraming((message) => messages.push(message), { contentType: "application/x-ndjson" });
 * framing.feed(new TextEncoder().encode('{"done":true}\n'));
 * framing.end(); // messages: [{ data: '{"done":true}' }]
 * ```
 */
export class DetectingFraming extends TextFraming {
  /** Picks the framing, the AWS event stream included, by {@link detectFraming}. */
  protected override detect(contentType: string | undefined, firstByte: number): FramingClass {
    return detectFraming(contentType, firstByte);
  }
}
