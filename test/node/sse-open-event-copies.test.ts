// What the SSE framing copies to keep an open event past a read (`ownText`, so that it holds no
// slice of the read's whole text) is what that read added, never the open event again: counted
// through `ownText` itself, since a copy takes no time a test could honestly assert. A read
// of a few bytes into an event of 60,000 characters copied all 60,000 before.
import { describe, expect, it, vi } from "vitest";
import type { SSEMessage } from "../../src/framing/framing.ts";

const copied = vi.hoisted(() => ({ characters: 0 }));
vi.mock("../../src/shared/kept-text.ts", () => ({
  ownText: (text: string): string => {
    copied.characters += text.length;
    return ` ${text}`.slice(1);
  },
}));
const { SSEDecoder } = await import("../../src/framing/sse-decoder-stream.ts");

const LONG = 60_000;
const READS = 20_000;

/** The messages of `reads` fed one by one, and the characters copied per character read. */
function decode(reads: string[]): { messages: SSEMessage[]; copiedPerCharacter: number } {
  const messages: SSEMessage[] = [];
  const decoder = new SSEDecoder((message) => messages.push(message), { maxEventLength: 2 ** 20 });
  const encoder = new TextEncoder();
  copied.characters = 0;
  let read = 0;
  for (const text of reads) {
    decoder.feed(encoder.encode(text));
    read += text.length;
  }
  decoder.end();
  return { messages, copiedPerCharacter: copied.characters / read };
}

const opening = `event: ${"e".repeat(LONG)}\nid: ${"i".repeat(LONG)}\ndata: ${"d".repeat(LONG)}\n`;

describe("SSEDecoder keeping an open event past a read", () => {
  it("copies nothing more for reads that add nothing to it (comments, 2 bytes each)", () => {
    const { messages, copiedPerCharacter } = decode([opening, ...Array<string>(READS).fill(":\n"), "\n"]);
    expect(messages).toEqual([{ event: "e".repeat(LONG), id: "i".repeat(LONG), data: "d".repeat(LONG) }]);
    expect(copiedPerCharacter).toBeLessThanOrEqual(1);
  });

  it("copies only the data line each read adds", () => {
    const { messages, copiedPerCharacter } = decode([opening, ...Array<string>(READS).fill("data:x\n"), "\n"]);
    expect(messages).toEqual([
      { event: "e".repeat(LONG), id: "i".repeat(LONG), data: `${"d".repeat(LONG)}${"\nx".repeat(READS)}` },
    ]);
    expect(copiedPerCharacter).toBeLessThanOrEqual(1);
  });

  it("copies only the part of a line each read adds", () => {
    const { messages, copiedPerCharacter } = decode([opening, "data:", ...Array<string>(READS).fill("xy"), "\n\n"]);
    expect(messages).toEqual([
      { event: "e".repeat(LONG), id: "i".repeat(LONG), data: `${"d".repeat(LONG)}\n${"xy".repeat(READS)}` },
    ]);
    // The line's own pieces, then the line once as data when it ends.
    expect(copiedPerCharacter).toBeLessThanOrEqual(2);
  });

  it("copies a field that a read sets again, and keeps the last value", () => {
    const reads = [opening];
    for (let i = 0; i < 100; i++) reads.push(`event: e${i}\nid: ${i}\n`);
    const { messages, copiedPerCharacter } = decode([...reads, "\n"]);
    expect(messages).toEqual([{ event: "e99", id: "99", data: "d".repeat(LONG) }]);
    expect(copiedPerCharacter).toBeLessThanOrEqual(1);
  });
});
