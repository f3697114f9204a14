// Every event the two UI protocol encoders write, checked one by one against the protocols' own
// published schemas: AG-UI 1.0's `EventSchemas` (`@ag-ui/core/schemas`) and the AI SDK's
// `uiMessageChunkSchema` of ai 5.0.53 (strict), 5, 6 and 7. The client tests read the same bytes
// through the real clients; this names the event and the field when one does not conform.
// Sources: every recording, a tool loop run at the edge (results, reasoning, a second step),
// a streaming tool's preliminary results, a violation, a cut stream and generated deltas.
import { EventSchemas } from "@ag-ui/core/schemas";
import * as ai5strict from "ai-v5-0";
import * as ai5 from "ai-v5";
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AGUIEncoder,
  encodeEvents,
  runToolLoop,
  ToolRunnerStream,
  UIMessageEncoder,
  type EncodableEvent,
} from "../../src/index.ts";
import { accumulate, countingIds, fixtureEvents, generatedDeltas } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { dataFrames } from "../support/protocol-readers.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const find = (provider: string, name: string) => fixtures.find((f) => f.provider === provider && f.name === name)!;

type Verdict = { ok: true } | { ok: false; message: string };
type Check = (event: unknown) => Promise<Verdict>;

/** A validator of a version's `uiMessageChunkSchema`: a zod schema in ai 5.0.53, a lazy schema after. */
function uiChunkCheck(schema: unknown): Check {
  if (typeof schema === "function") {
    const { validate } = (schema as () => { validate: (v: unknown) => unknown })();
    return async (event) => {
      const result = (await validate(event)) as { success: boolean; error?: Error };
      return result.success ? { ok: true } : { ok: false, message: String(result.error?.message) };
    };
  }
  const zod = schema as { safeParse: (v: unknown) => { success: boolean; error?: Error } };
  return async (event) => {
    const result = zod.safeParse(event);
    return result.success ? { ok: true } : { ok: false, message: String(result.error?.message) };
  };
}

const agUiCheck: Check = async (event) => {
  const result = EventSchemas.safeParse(event);
  return result.success ? { ok: true } : { ok: false, message: result.error.message };
};

// [the protocol's schema, its encoder with fixed ids]
const PROTOCOLS: [string, Check, () => AGUIEncoder | UIMessageEncoder][] = [
  [
    "AG-UI 1.0 EventSchemas",
    agUiCheck,
    () => new AGUIEncoder({ threadId: "t1", runId: "r1", generateId: countingIds() }),
  ],
  [
    "ai 5.0.53 uiMessageChunkSchema",
    uiChunkCheck(ai5strict.uiMessageChunkSchema),
    () => new UIMessageEncoder({ messageId: "m1", generateId: countingIds(), minVersion: 5 }),
  ],
  [
    "ai 5 uiMessageChunkSchema",
    uiChunkCheck(ai5.uiMessageChunkSchema),
    () => new UIMessageEncoder({ messageId: "m1", generateId: countingIds(), minVersion: 5 }),
  ],
  [
    "ai 6 uiMessageChunkSchema",
    uiChunkCheck(ai6.uiMessageChunkSchema),
    () => new UIMessageEncoder({ messageId: "m1", generateId: countingIds() }),
  ],
  [
    "ai 7 uiMessageChunkSchema",
    uiChunkCheck(ai7.uiMessageChunkSchema),
    () => new UIMessageEncoder({ messageId: "m1", generateId: countingIds() }),
  ],
];

/** The events that do not conform, each as `#n TYPE: message`. */
async function nonConforming(check: Check, encoder: AGUIEncoder | UIMessageEncoder, events: readonly EncodableEvent[]) {
  const frames = dataFrames(encodeEvents(encoder, events, true)).filter((frame) => frame !== "[DONE]");
  expect(frames.length).toBeGreaterThan(0);
  const failures: string[] = [];
  for (const [n, frame] of frames.entries()) {
    const event = JSON.parse(frame) as { type?: string };
    const verdict = await check(event);
    if (!verdict.ok) failures.push(`#${n} ${event.type}: ${verdict.message}`);
  }
  return failures;
}

/** Event lists no recording has alone: tools run at the edge, a streaming tool, a violation, a cut. */
async function edgeCases(): Promise<[string, EncodableEvent[]][]> {
  const loop = await collect(
    runToolLoop({
      provider: "anthropic",
      messages: [{ role: "user", content: "hi" }],
      tools: { weather: { run: (args) => ({ sky: "clear", ...(args as object) }) } },
      call: replayModel([find("anthropic", "parallel-tool-use").text, find("anthropic", "thinking-then-text").text])
        .call,
    }),
  );
  const escaped = await fixtureEvents(find("anthropic", "tool-use-escaped-quotes-in-input"));
  const start = escaped.find((e) => e.type === "tool-call-start");
  const streaming = await collect(
    fromChunks(escaped).pipeThrough(
      new ToolRunnerStream({
        tools: {
          [start?.type === "tool-call-start" ? start.name : "x"]: {
            async *run() {
              yield { rows: [1] };
              return { rows: [1, 2] };
            },
          },
        },
      }),
    ),
  );
  const parallel = await fixtureEvents(find("openai", "chat-parallel-tool-calls-two-functions"));
  const violation = parallel.flatMap((event): EncodableEvent[] =>
    event.type === "tool-call-start" && event.index === 1
      ? [
          event,
          {
            type: "tool-call-violation",
            index: 1,
            id: event.id,
            name: event.name,
            error: { code: "schema-mismatch", message: "Expected a string.", path: "/city" },
          },
        ]
      : [event],
  );
  const three = await fixtureEvents(find("anthropic", "three-tool-use-blocks"));
  const cutAt = three.findIndex((e) => e.type === "tool-call-delta") + 1;
  const first = three.find((e) => e.type === "tool-call-start");
  const cut: EncodableEvent[] = [
    ...three.slice(0, cutAt),
    {
      type: "abort",
      reason: "stream-failed",
      discarded:
        first?.type === "tool-call-start"
          ? [{ index: first.index, id: first.id, name: first.name, rawArguments: "" }]
          : [],
      error: { code: "stream-failed", message: "The input stream failed." },
    },
  ];
  return [
    ["a tool loop run at the edge over two steps", loop],
    ["a streaming tool's preliminary results", streaming],
    ["a tool-call-violation", violation],
    ["a stream cut in the middle of a call", cut],
  ];
}

for (const [name, check, encoder] of PROTOCOLS) {
  describe.skipIf(!recordingsAvailable)(`${name}: every event conforms`, () => {
    it("the schema refuses a call's start without its name (the check can fail)", async () => {
      const bad = name.startsWith("AG-UI")
        ? { type: "TOOL_CALL_START", toolCallId: "c1" }
        : { type: "tool-input-start", toolCallId: "c1" };
      expect((await check(bad)).ok).toBe(false);
    });

    it("every recording of every provider", async () => {
      const failures: string[] = [];
      for (const fixture of fixtures)
        for (const failure of await nonConforming(check, encoder(), await fixtureEvents(fixture)))
          failures.push(`${fixture.provider}/${fixture.name} ${failure}`);
      expect(failures).toEqual([]);
    });

    it("tools at the edge, streaming tools, violations and a cut stream", async () => {
      for (const [label, events] of await edgeCases())
        expect(await nonConforming(check, encoder(), events), label).toEqual([]);
    });

    it("generated deltas: text, reasoning and parallel calls interleaved, finished or cut", async () => {
      await fc.assert(
        fc.asyncProperty(generatedDeltas, async (deltas) => {
          expect(await nonConforming(check, encoder(), await accumulate(deltas))).toEqual([]);
        }),
        { numRuns: 60 },
      );
    });
  });
}
