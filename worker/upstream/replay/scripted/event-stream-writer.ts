/**
 * Writes AWS event-stream messages (`application/vnd.amazon.eventstream`), the binary framing of
 * Bedrock's streaming APIs, as the published format lays them out: a 12-byte prelude (total
 * length, headers length, the CRC-32 of those 8 bytes), the headers (name length, name, type 7 =
 * string, value length, value), the payload, and the CRC-32 of everything before it.
 *
 * The checksums are the library's CRC-32, the one its decoder checks them with.
 *
 * @module
 */
import { crc32 } from "../../../../src/bedrock.ts";

const utf8 = new TextEncoder();

/** One message with string headers (in the order given) and a UTF-8 payload. */
export function eventStreamMessage(headers: Readonly<Record<string, string>>, payload: string): Uint8Array {
  const encoded = Object.entries(headers).map(([name, value]) => [utf8.encode(name), utf8.encode(value)] as const);
  const headersLength = encoded.reduce((sum, [name, value]) => sum + 1 + name.length + 1 + 2 + value.length, 0);
  const body = utf8.encode(payload);
  const total = 12 + headersLength + body.length + 4;
  const message = new Uint8Array(total);
  const view = new DataView(message.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(message, 0, 8));
  let at = 12;
  for (const [name, value] of encoded) {
    message[at++] = name.length;
    message.set(name, at);
    at += name.length;
    message[at++] = 7;
    view.setUint16(at, value.length);
    at += 2;
    message.set(value, at);
    at += value.length;
  }
  message.set(body, at);
  view.setUint32(total - 4, crc32(message, 0, total - 4));
  return message;
}

/** A Bedrock event: `:event-type`, `:content-type: application/json`, `:message-type: event`, as Bedrock orders them. */
export function bedrockEvent(eventType: string, payload: string): Uint8Array {
  return eventStreamMessage(
    { ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
    payload,
  );
}
