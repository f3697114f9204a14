// The JSON Schema checker is a plug-in (issue 36): `streamToolCalls` with `tools` checks the
// calls' names alone, and each call's arguments against its tool's JSON Schema only when the app
// passes `jsonSchema` from tool-call-stream/schema. Run through the provider subpaths, as an app
// that bundles one provider calls them.
import * as anthropic from "../../src/anthropic.ts";
import * as gemini from "../../src/gemini.ts";
import { sdkChunks, validateToolCalls } from "../../src/core.ts";
import type { ToolCallEvent, ToolDefinition } from "../../src/index.ts";
import * as openai from "../../src/openai.ts";
import { jsonSchema } from "../../src/schema.ts";
import { runToolLoop } from "../../src/tools.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const SCHEMA = {
  type: "object",
  properties: { city: { type: "string" }, unit: { enum: ["c", "f"] } },
  required: ["city"],
  additionalProperties: false,
} as const;
const TOOLS: ToolDefinition[] = [{ type: "function", function: { name: "get_weather", parameters: SCHEMA } }];
/** Arguments that violate SCHEMA twice: `city` is a number and `unit` is not one of the values. */
const BAD = { city: 1, unit: "kelvin" };
const BAD_ISSUES = ["$.city must be string, not number", '$.unit must be one of "c", "f"'];

/** One call `name(BAD)` through a provider subpath's `streamToolCalls` (bytes, or an SDK's chunks with `sdkChunks`), each call's end, and the finish. */
const SUBPATHS = {
  openai: (options: object) =>
    openai.streamToolCalls(
      fromChunks([
        bytes(
          openAISSE([
            chatChunk({
              tool_calls: [{ index: 0, id: "c1", function: { name: "get_weather", arguments: JSON.stringify(BAD) } }],
            }),
            chatChunk({}, "tool_calls"),
          ]),
        ),
      ]),
      options,
    ),
  anthropic: (options: object) =>
    anthropic.streamToolCalls(
      [
        { type: "message_start", message: { id: "m", role: "assistant", content: [], usage: {} } },
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "t1", name: "get_weather", input: {} },
        },
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(BAD) },
        },
        { type: "content_block_stop", index: 0 },
        { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: {} },
        { type: "message_stop" },
      ],
      { sdkChunks, ...options },
    ),
  gemini: (options: object) =>
    gemini.streamToolCalls(
      [
        {
          candidates: [
            {
              index: 0,
              content: { parts: [{ functionCall: { name: "get_weather", args: BAD } }] },
              finishReason: "STOP",
            },
          ],
        },
      ],
      { sdkChunks, ...options },
    ),
};

function ending(events: readonly ToolCallEvent[], label: string): ToolCallEvent | undefined {
  assertEquals(events.at(-1)?.type, "finish", `${label}: finishes`);
  return events.find((event) => event.type === "tool-call" || event.type === "invalid-tool-call");
}

group("the JSON Schema plug-in (tool-call-stream/schema)", (test) => {
  test("without it a schema violation is not reported (the call passes with its arguments); with it, it is", async () => {
    for (const [provider, run] of Object.entries(SUBPATHS)) {
      const names = ending(await collect(run({ tools: TOOLS })), provider);
      assert(names?.type === "tool-call", `${provider}: without the plug-in the call passes, not ${names?.type}`);
      assertEquals(names.arguments, BAD, provider);
      const checked = ending(await collect(run({ tools: TOOLS, jsonSchema })), provider);
      assert(checked?.type === "invalid-tool-call", `${provider}: with the plug-in the call is invalid`);
      assertEquals(checked.error.code, "schema-mismatch", provider);
      assertEquals(checked.error.issues, BAD_ISSUES, provider);
    }
  });

  test("tool names are checked with and without it: a call to an undeclared tool is an invalid-tool-call", async () => {
    const other: ToolDefinition[] = [{ name: "lookup_order", input_schema: { type: "object" } }];
    for (const [provider, run] of Object.entries(SUBPATHS))
      for (const options of [{ tools: other }, { tools: other, jsonSchema }]) {
        const label = `${provider}, ${"jsonSchema" in options ? "jsonSchema" : "names alone"}`;
        const end = ending(await collect(run(options)), label);
        assert(end?.type === "invalid-tool-call", `${label}: invalid`);
        assertEquals(end.error.message, "get_weather is not one of the request's tools", label);
        assertEquals(end.error.issues, ["get_weather is not one of the request's tools"], label);
      }
  });

  test("arguments that are not JSON are invalid without it; a tool given by a validator is validated by it with the validateToolCalls plug-in", async () => {
    const body = (args: string) =>
      fromChunks([
        bytes(
          openAISSE([
            chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "get_weather", arguments: args } }] }),
            chatChunk({}, "tool_calls"),
          ]),
        ),
      ]);
    const broken = ending(
      await collect(openai.streamToolCalls(body('{"city": '), { tools: TOOLS, repair: false })),
      "not JSON",
    );
    assert(broken?.type === "invalid-tool-call" && broken.error.code === "invalid-json", "not JSON: invalid-json");
    const validator = {
      "~standard": {
        version: 1 as const,
        vendor: "test",
        validate: (value: unknown) =>
          typeof (value as { city?: unknown }).city === "string"
            ? { value: { ...(value as object), checked: true } }
            : { issues: [{ message: "city must be a string", path: ["city"] }] },
      },
    };
    const tools = [{ name: "get_weather", schema: validator }];
    let thrown: unknown;
    try {
      openai.streamToolCalls(body("{}"), { tools });
    } catch (error) {
      thrown = error;
    }
    assert(
      thrown instanceof TypeError && thrown.message.includes("validateToolCalls"),
      "without the validateToolCalls plug-in, a TypeError naming it",
    );
    const rejected = ending(
      await collect(openai.streamToolCalls(body(JSON.stringify(BAD)), { tools, validateToolCalls })),
      "validator",
    );
    assert(
      rejected?.type === "invalid-tool-call" && rejected.error.code === "schema-mismatch",
      "the validator rejects",
    );
    assertEquals(rejected.error.issues, ["$.city: city must be a string"]);
    const accepted = ending(
      await collect(openai.streamToolCalls(body('{"city": "Oslo"}'), { tools, validateToolCalls })),
      "validator",
    );
    assert(accepted?.type === "tool-call", "the validator accepts");
    assertEquals(accepted.arguments, { city: "Oslo", checked: true }, "its output is the arguments");
  });

  test("earlyValidation needs it: a TypeError without it, tool-call-violation with it (batches too)", async () => {
    let thrown: unknown;
    try {
      SUBPATHS.openai({ tools: TOOLS, earlyValidation: true });
    } catch (error) {
      thrown = error;
    }
    assert(thrown instanceof TypeError && thrown.message.includes("jsonSchema"), "a TypeError naming the plug-in");
    thrown = undefined;
    try {
      openai.streamToolCallBatches(fromChunks([]), { tools: TOOLS, earlyValidation: true });
    } catch (error) {
      thrown = error;
    }
    assert(thrown instanceof TypeError, "streamToolCallBatches throws the same");
    const without = await collect(SUBPATHS.openai({ earlyValidation: true }));
    assertEquals(without.at(-1)?.type, "finish", "without tools there is nothing to check early: no error");
    const events = await collect(SUBPATHS.openai({ tools: TOOLS, jsonSchema, earlyValidation: true }));
    const violation = events.find((event) => event.type === "tool-call-violation");
    assert(violation?.type === "tool-call-violation", "a violation while the arguments stream");
    assertEquals(violation.error.path, "/city");
  });

  test("runToolLoop brings the plug-in itself for earlyValidation (its runner checks parameters with the same checker)", async () => {
    const bodies = [
      openAISSE([
        chatChunk({
          tool_calls: [{ index: 0, id: "c1", function: { name: "get_weather", arguments: JSON.stringify(BAD) } }],
        }),
        chatChunk({}, "tool_calls"),
      ]),
      openAISSE([chatChunk({ content: "Done." }, "stop")]),
    ];
    for (const earlyValidation of [false, true]) {
      let step = 0;
      const events = await collect(
        runToolLoop({
          provider: "openai",
          messages: [],
          tools: { get_weather: { parameters: SCHEMA, run: () => "sunny" } },
          call: async () => new Response(bodies[step++]),
          earlyValidation,
        }),
      );
      const label = `earlyValidation ${earlyValidation}`;
      assertEquals(
        events.some((event) => event.type === "tool-call-violation"),
        earlyValidation,
        `${label}: a violation only when checked early`,
      );
      assert(!events.some((event) => event.type === "tool-result"), `${label}: the tool never runs on bad arguments`);
      assertEquals(events.at(-1)?.type, "loop-finish", label);
    }
  });
});
