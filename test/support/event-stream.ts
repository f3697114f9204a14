// An AWS event-stream encoder for tests, written from the published format and independent of
// the library's decoder (its CRC-32 is the bitwise definition, not the library's table).

/** A header value with its wire type (0 true, 1 false, 2 byte, 3 short, 4 integer, 5 long, 6 bytes, 7 string, 8 timestamp, 9 uuid). */
export type TestHeader =
  | { type: 0 | 1 }
  | { type: 2 | 3 | 4; value: number }
  | { type: 5 | 8; value: bigint }
  | { type: 6; value: Uint8Array }
  | { type: 7; value: string }
  | { type: 9; value: Uint8Array };

/** CRC-32 (zlib's), bit by bit. */
export function referenceCrc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function headerBytes(name: string, header: TestHeader): number[] {
  const nameBytes = [...new TextEncoder().encode(name)];
  const out = [nameBytes.length, ...nameBytes, header.type];
  const view = new DataView(new ArrayBuffer(8));
  switch (header.type) {
    case 0:
    case 1:
      break;
    case 2:
      out.push(header.value & 0xff);
      break;
    case 3:
      view.setInt16(0, header.value);
      out.push(...new Uint8Array(view.buffer, 0, 2));
      break;
    case 4:
      view.setInt32(0, header.value);
      out.push(...new Uint8Array(view.buffer, 0, 4));
      break;
    case 5:
    case 8:
      view.setBigInt64(0, header.value);
      out.push(...new Uint8Array(view.buffer));
      break;
    case 6:
    case 7: {
      const value = header.type === 7 ? new TextEncoder().encode(header.value) : header.value;
      out.push(value.length >> 8, value.length & 0xff, ...value);
      break;
    }
    case 9:
      out.push(...header.value);
  }
  return out;
}

/** One event-stream message with the given headers and payload, both CRCs computed. */
export function encodeMessage(
  headers: Record<string, TestHeader | string>,
  payload: string | Uint8Array,
): Uint8Array<ArrayBuffer> {
  const head = Object.entries(headers).flatMap(([name, header]) =>
    headerBytes(name, typeof header === "string" ? { type: 7, value: header } : header),
  );
  const body = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const total = 12 + head.length + body.length + 4;
  const message = new Uint8Array(total);
  const view = new DataView(message.buffer);
  view.setUint32(0, total);
  view.setUint32(4, head.length);
  view.setUint32(8, referenceCrc32(message.subarray(0, 8)));
  message.set(head, 12);
  message.set(body, 12 + head.length);
  view.setUint32(total - 4, referenceCrc32(message.subarray(0, total - 4)));
  return message;
}

/** An event message as Bedrock sends it: `:event-type`, `:content-type`, `:message-type`. */
export function eventMessage(eventType: string, payload: unknown): Uint8Array<ArrayBuffer> {
  return encodeMessage(
    { ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
    JSON.stringify(payload),
  );
}

/** An exception message as Bedrock sends it. */
export function exceptionMessage(exceptionType: string, payload: unknown): Uint8Array<ArrayBuffer> {
  return encodeMessage(
    { ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
    JSON.stringify(payload),
  );
}

/** ConverseStream events, each with a random-looking `p` padding as Bedrock adds. */
export function converse(events: readonly [string, Record<string, unknown>][]): Uint8Array<ArrayBuffer> {
  return concat(
    events.map(([type, payload], i) =>
      eventMessage(type, { ...payload, p: "abcdefghijklmnopqrstuvwxyz".slice(0, (i * 7) % 26) }),
    ),
  );
}

/** InvokeModelWithResponseStream `chunk` messages, one Anthropic event each, base64 in `bytes`. */
export function invokeChunks(events: readonly Record<string, unknown>[]): Uint8Array<ArrayBuffer> {
  return concat(
    events.map((event) => {
      const utf8 = new TextEncoder().encode(JSON.stringify(event));
      const bytes = btoa(Array.from(utf8, (byte) => String.fromCharCode(byte)).join(""));
      return eventMessage("chunk", { bytes, p: "abc" });
    }),
  );
}

/** Joins byte arrays. */
export function concat(parts: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The start offset and length of each message of a well-formed event-stream body. */
export function messageSpans(body: Uint8Array): { start: number; total: number; headers: number }[] {
  const spans: { start: number; total: number; headers: number }[] = [];
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  for (let start = 0; start < body.length; ) {
    const total = view.getUint32(start);
    spans.push({ start, total, headers: view.getUint32(start + 4) });
    start += total;
  }
  return spans;
}
