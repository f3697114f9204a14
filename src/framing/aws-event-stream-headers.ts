import type { EventStreamHeaderValue } from "./framing.ts";

/**
 * Reads the headers section `bytes[start, end)` of an AWS event-stream message: each header is a
 * name (a length byte, then the name), a type byte and a value of that type (0 true, 1 false,
 * 2 byte, 3 short, 4 integer, 5 long, 6 bytes and 7 string with a 2-byte length, 8 timestamp in
 * milliseconds, 9 UUID). Returns `undefined` when a header runs past the section or has an
 * unknown type: the message is then not readable.
 */
export function readEventStreamHeaders(
  bytes: Uint8Array,
  start: number,
  end: number,
  text: TextDecoder,
): Record<string, EventStreamHeaderValue> | undefined {
  // No prototype: a header named `__proto__` is a header like any other.
  const headers = Object.create(null) as Record<string, EventStreamHeaderValue>;
  let at = start;
  while (at < end) {
    const nameLength = bytes[at]!;
    const type = bytes[at + 1 + nameLength];
    if (nameLength === 0 || type === undefined || at + 2 + nameLength > end) return undefined;
    const name = ascii(bytes, at + 1, at + 1 + nameLength) ?? text.decode(bytes.subarray(at + 1, at + 1 + nameLength));
    at += 2 + nameLength;
    const size = valueSize(bytes, at, end, type);
    if (size === undefined || at + size > end) return undefined;
    headers[name] = value(bytes, at, type, text);
    at += size;
  }
  return headers;
}

/** Bytes taken by a value of `type` at `at`, length prefix included; `undefined` for an unknown type. */
function valueSize(bytes: Uint8Array, at: number, end: number, type: number): number | undefined {
  if (type === 6 || type === 7) return at + 2 <= end ? 2 + ((bytes[at]! << 8) | bytes[at + 1]!) : undefined;
  return [0, 0, 1, 2, 4, 8, undefined, undefined, 8, 16][type];
}

function value(bytes: Uint8Array, at: number, type: number, text: TextDecoder): EventStreamHeaderValue {
  switch (type) {
    case 0:
    case 1:
      return type === 0;
    case 2:
      return (bytes[at]! << 24) >> 24;
    case 3:
      return (((bytes[at]! << 8) | bytes[at + 1]!) << 16) >> 16;
    case 4:
      return (bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!;
    case 5:
    case 8: {
      const long = new DataView(bytes.buffer, bytes.byteOffset + at, 8).getBigInt64(0);
      return type === 5 ? long : new Date(Number(long));
    }
    case 9: {
      const hex = Array.from(bytes.subarray(at, at + 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
  }
  const length = (bytes[at]! << 8) | bytes[at + 1]!;
  const data = bytes.subarray(at + 2, at + 2 + length);
  return type === 6 ? data.slice() : (ascii(bytes, at + 2, at + 2 + length) ?? text.decode(data));
}

/**
 * Short ASCII strings already read, by a hash of their bytes: every message repeats the same
 * header names and most of their values (`:event-type`, `application/json`, `event`), so they are
 * compared with the bytes instead of built again. Bounded, and shared only as immutable strings.
 */
const seen = new Map<number, string>();

/** The text of `bytes[start, end)` when it is short ASCII (every header name and the usual values), without a decoder call. */
function ascii(bytes: Uint8Array, start: number, end: number): string | undefined {
  if (end - start > 64) return undefined;
  let hash = end - start;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (byte > 0x7f) return undefined;
    hash = Math.imul(hash ^ byte, 0x01000193);
  }
  const known = seen.get(hash);
  if (known !== undefined && known.length === end - start && sameText(known, bytes, start)) return known;
  const text = String.fromCharCode(...bytes.subarray(start, end));
  if (seen.size < 256) seen.set(hash, text);
  return text;
}

function sameText(text: string, bytes: Uint8Array, start: number): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== bytes[start + i]) return false;
  return true;
}
