// Type tests, checked by `tsc -p test/tsconfig.json` (the typecheck step of npm test), never run:
// streamToolCalls narrows `tool-call` events by `name` to the type the tool's schema or validator
// gives, and leaves what it cannot know as JsonValue. Each `@ts-expect-error` must stay an error.
import type { StandardJSONSchemaV1 as SpecJSONSchema, StandardSchemaV1 as SpecSchema } from "@standard-schema/spec";
import { expectTypeOf } from "vitest";
import { z } from "zod";
import {
  defineTool,
  streamToolCalls,
  toolDefinitions,
  type DeepPartial,
  type JsonValue,
  type StandardJSONSchemaV1,
  type StandardSchemaV1,
  type ToolCallEvent,
  type ToolDefinition,
} from "../../src/index.ts";

declare const response: Response;
type EventOf<S> = S extends ReadableStream<infer T> ? T : never;

// Tools written `as const`, in the providers' shapes.
const jsonTools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string" },
          unit: { type: "string", enum: ["c", "f"] },
          days: { type: ["integer", "null"] },
        },
        required: ["city"],
        additionalProperties: false,
      },
    },
  },
  {
    name: "get_time",
    input_schema: {
      type: "object",
      properties: { zone: { type: "string" }, at: { anyOf: [{ type: "string" }, { type: "number" }] } },
      required: ["zone", "at"],
    },
  },
  {
    type: "function",
    name: "list",
    parameters: {
      type: "object",
      properties: {
        items: { type: "array", items: { type: "object", properties: { qty: { type: "number" } }, required: ["qty"] } },
      },
    },
  },
  { name: "anything" },
] as const;
declare const jsonEvent: EventOf<ReturnType<typeof streamToolCalls<typeof jsonTools>>>;
if (jsonEvent.type === "tool-call" && jsonEvent.name === "get_weather") {
  expectTypeOf(jsonEvent.arguments.city).toEqualTypeOf<string>();
  expectTypeOf(jsonEvent.arguments.unit).toEqualTypeOf<"c" | "f" | undefined>();
  expectTypeOf(jsonEvent.arguments.days).toEqualTypeOf<number | null | undefined>();
  // @ts-expect-error: not one of the tool's properties
  void jsonEvent.arguments.country;
}
if (jsonEvent.type === "tool-call" && jsonEvent.name === "get_time") {
  expectTypeOf(jsonEvent.arguments).toEqualTypeOf<{ zone: string; at: string | number }>();
}
if (jsonEvent.type === "tool-call" && jsonEvent.name === "list") {
  expectTypeOf(jsonEvent.arguments).toEqualTypeOf<{ items?: { qty: number }[] }>();
}
if (jsonEvent.type === "tool-call" && jsonEvent.name === "anything") {
  // A tool without a schema: its arguments stay JsonValue.
  expectTypeOf(jsonEvent.arguments).toEqualTypeOf<JsonValue>();
}
if (jsonEvent.type === "tool-call") {
  // @ts-expect-error: with tools given, a tool-call's name is one of theirs (any other is an invalid-tool-call)
  void (jsonEvent.name === "delete_everything");
  expectTypeOf(jsonEvent.rawArguments).toEqualTypeOf<string>();
}
if (jsonEvent.type === "invalid-tool-call") expectTypeOf(jsonEvent.name).toEqualTypeOf<string>();

// Tools given by validators: zod 4 and a hand-written Standard Schema, mixed with a JSON Schema.
declare const handWritten: StandardSchemaV1<{ zone: string }, { zone: string; at: Date }>;
const validatorTools = [
  {
    name: "get_weather",
    schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c"), days: z.coerce.number().optional() }),
  },
  { name: "get_time", schema: handWritten },
  { name: "ping", parameters: { type: "object", properties: { host: { type: "string" } }, required: ["host"] } },
] as const;
const stream = streamToolCalls(response, { tools: validatorTools, partialArguments: true });
declare const event: EventOf<typeof stream>;
if (event.type === "tool-call" && event.name === "get_weather") {
  // The validator's output: the default makes `unit` always present.
  expectTypeOf(event.arguments).toEqualTypeOf<{ city: string; unit: "c" | "f"; days?: number | undefined }>();
  expectTypeOf(event.arguments.city).toEqualTypeOf<string>();
}
if (event.type === "tool-call" && event.name === "get_time") expectTypeOf(event.arguments.at).toEqualTypeOf<Date>();
if (event.type === "tool-call" && event.name === "ping") expectTypeOf(event.arguments.host).toEqualTypeOf<string>();
if (event.type === "tool-call-delta") {
  // A delta carries no name: a deep-partial of one of the tools' arguments.
  expectTypeOf(event.partialArguments).toEqualTypeOf<
    | DeepPartial<{ city: string; unit: "c" | "f"; days?: number | undefined }>
    | DeepPartial<{ zone: string; at: Date }>
    | DeepPartial<{ host: string }>
    | undefined
  >();
}
if (event.type === "finish") {
  const [first] = event.toolCalls;
  if (first?.name === "get_weather") expectTypeOf(first.arguments.unit).toEqualTypeOf<"c" | "f">();
}
switch (event.type) {
  case "tool-call":
    switch (event.name) {
      case "get_weather":
        expectTypeOf(event.arguments.unit).toEqualTypeOf<"c" | "f">();
        break;
      case "get_time":
        expectTypeOf(event.arguments.zone).toEqualTypeOf<string>();
        break;
      case "ping":
        break;
      default:
        expectTypeOf(event).toBeNever();
    }
}

// Unknown names stay JsonValue: tools whose names are not literal types, or no tools at all.
declare const someTools: ToolDefinition[];
declare const unknownEvent: EventOf<ReturnType<typeof streamToolCalls<typeof someTools>>>;
expectTypeOf(unknownEvent).toEqualTypeOf<ToolCallEvent>();
if (unknownEvent.type === "tool-call") {
  expectTypeOf(unknownEvent.name).toEqualTypeOf<string>();
  expectTypeOf(unknownEvent.arguments).toEqualTypeOf<JsonValue>();
}
expectTypeOf(streamToolCalls(response)).toEqualTypeOf<ReadableStream<ToolCallEvent>>();
expectTypeOf(streamToolCalls(response, { provider: "openai" })).toEqualTypeOf<ReadableStream<ToolCallEvent>>();
const widened: { name: string; schema: z.ZodString }[] = [{ name: "x", schema: z.string() }];
expectTypeOf(streamToolCalls(response, { tools: widened })).toEqualTypeOf<ReadableStream<ToolCallEvent>>();
// The typed stream is still a stream of ToolCallEvent where the arguments are JSON.
const asPlain: ReadableStream<ToolCallEvent> = streamToolCalls(response, { tools: jsonTools });
void asPlain;

// The written-out interfaces match the spec's, both ways; zod's schemas implement both.
expectTypeOf<SpecSchema<{ a: string }, number>>().toExtend<StandardSchemaV1<{ a: string }, number>>();
expectTypeOf<StandardSchemaV1<{ a: string }, number>>().toExtend<SpecSchema<{ a: string }, number>>();
expectTypeOf<SpecJSONSchema<string>>().toExtend<StandardJSONSchemaV1<string>>();
expectTypeOf<StandardJSONSchemaV1<string>>().toExtend<SpecJSONSchema<string>>();
z.object({ a: z.string() }) satisfies StandardSchemaV1 & StandardJSONSchemaV1;

// defineTool types the handler by its validator; toolDefinitions takes validator tools too.
const weatherTool = defineTool({
  schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }),
  run: (args) => {
    expectTypeOf(args).toEqualTypeOf<{ city: string; unit: "c" | "f" }>();
    return args.city;
  },
});
toolDefinitions("anthropic", { get_weather: weatherTool });
toolDefinitions("openai", validatorTools);
defineTool({
  schema: z.object({ n: z.number() }),
  // @ts-expect-error: `n` is a number
  run: ({ n }) => n.toUpperCase(),
});

// A handler that streams its result (as in the README): an async generator, typed by its validator.
declare function convert(value: number, from: string, to: string, signal: AbortSignal): Promise<number>;
defineTool({
  schema: z.object({ from: z.string(), to: z.string(), values: z.array(z.number()).max(12) }),
  async *run({ from, to, values }, { signal }) {
    const rows: [number, number][] = [];
    for (const value of values) {
      rows.push([value, await convert(value, from, to, signal)]);
      yield { rows };
    }
    return { rows };
  },
});
