/**
 * Types only: the TypeScript type of a tool's arguments, read from its JSON Schema written
 * `as const` or from its Standard Schema validator, and the events of a stream whose tools are
 * known, narrowed by `name` (`streamToolCalls(response, { tools })`).
 *
 * @module
 */
import type {
  CompletedToolCallEvent,
  FinishEvent,
  ToolCall,
  ToolCallDeltaEvent,
  ToolCallEvent,
} from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import type { ToolDefinition } from "./tool-schema.ts";

/**
 * The type of the values a JSON Schema written `as const` accepts, for the keywords tool schemas
 * use: `type` (and type lists), `properties` with `required`, `items`, `enum`, `const`, `anyOf`
 * and `nullable`. A property not in `required` is optional; a schema that is not a literal type
 * (a plain `ToolSchema`) gives `JsonValue`.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city"] } as const;
 * type Args = InferToolSchema<typeof schema>; // { city: string; days?: number }
 * ```
 */
export type InferToolSchema<S> =
  | (S extends { readonly nullable: true } ? null : never)
  | (S extends { readonly const: infer C }
      ? C
      : S extends { readonly enum: readonly (infer E)[] }
        ? E
        : S extends { readonly anyOf: readonly (infer B)[] }
          ? InferToolSchema<B>
          : S extends { readonly type: infer T }
            ? T extends readonly (infer U)[]
              ? InferToolSchema<Omit<S, "type"> & { readonly type: U }>
              : T extends "string"
                ? string
                : T extends "number" | "integer"
                  ? number
                  : T extends "boolean"
                    ? boolean
                    : T extends "null"
                      ? null
                      : T extends "array"
                        ? S extends { readonly items: infer I }
                          ? InferToolSchema<I>[]
                          : JsonValue[]
                        : T extends "object"
                          ? S extends { readonly properties: infer P }
                            ? {
                                -readonly [K in keyof P as K extends (
                                  S extends { readonly required: readonly (infer R)[] }
                                    ? R
                                    : never
                                )
                                  ? K
                                  : never]: InferToolSchema<P[K]>;
                              } & {
                                -readonly [K in keyof P as K extends (
                                  S extends { readonly required: readonly (infer R)[] }
                                    ? R
                                    : never
                                )
                                  ? never
                                  : K]?: InferToolSchema<P[K]>;
                              } extends infer O
                              ? { [K in keyof O]: O[K] }
                              : never
                            : { [key: string]: JsonValue }
                          : JsonValue
            : JsonValue);

/**
 * The type of a tool definition's arguments: its validator's output type (`{ name, schema }`),
 * or the type its JSON Schema written `as const` accepts (`parameters`, `input_schema`,
 * `function.parameters`); `JsonValue` when neither says more.
 *
 * @example
 * ```ts
 * type Args = InferToolArguments<{ name: "get_weather"; schema: z.ZodObject<{ city: z.ZodString }> }>; // { city: string }
 * ```
 */
export type InferToolArguments<Tool> = Tool extends { readonly schema: infer V extends StandardSchemaV1 }
  ? StandardSchemaV1.InferOutput<V>
  : Tool extends { readonly function: { readonly parameters: infer S } }
    ? InferToolSchema<S>
    : Tool extends { readonly input_schema: infer S }
      ? InferToolSchema<S>
      : Tool extends { readonly parameters: infer S }
        ? InferToolSchema<S>
        : JsonValue;

/** The function name of a tool definition, as a literal type when it is one. */
export type InferToolName<Tool> = Tool extends { readonly function: { readonly name: infer N extends string } }
  ? N
  : Tool extends { readonly name: infer N extends string }
    ? N
    : string;

/** A complete call of one of `Tools`, its `arguments` typed by the tool of its `name`. */
export type TypedToolCall<Tools extends readonly ToolDefinition[]> = {
  [I in keyof Tools]: NamedToolCall<InferToolName<Tools[I]>, InferToolArguments<Tools[I]>>;
}[number];

/** A {@link ToolCall} with its name and arguments typed. */
export interface NamedToolCall<Name extends string, Arguments> extends Omit<ToolCall, "name" | "arguments"> {
  /** The function name: one of the tools'. */
  name: Name;
  /** The arguments, as the tool's schema or validator types them. */
  arguments: Arguments;
}

/** A `tool-call` event of one of `Tools`. */
export type TypedCompletedToolCallEvent<Tools extends readonly ToolDefinition[]> = {
  [I in keyof Tools]: NamedToolCallEvent<InferToolName<Tools[I]>, InferToolArguments<Tools[I]>>;
}[number];

/** A `tool-call` event with its name and arguments typed. */
export interface NamedToolCallEvent<Name extends string, Arguments> extends NamedToolCall<Name, Arguments> {
  /** The kind of event: always `tool-call`. */
  type: "tool-call";
}

/**
 * A value of which every property, at every depth, may be missing: a value still streaming.
 * `JsonValue` (what nothing is known of) and records keyed by any string stay as they are.
 */
export type DeepPartial<T> = [JsonValue] extends [T]
  ? T
  : T extends readonly (infer U)[]
    ? DeepPartial<U>[]
    : T extends object
      ? string extends keyof T
        ? T
        : { [K in keyof T]?: DeepPartial<T[K]> }
      : T;

/**
 * A `tool-call-delta` event of one of `Tools`: it carries no name (its `tool-call-start` does),
 * so `partialArguments` is a deep-partial of the arguments of one of the tools.
 */
export interface TypedToolCallDeltaEvent<Tools extends readonly ToolDefinition[]>
  extends Omit<ToolCallDeltaEvent, "partialArguments"> {
  /** The arguments parsed so far (with `partialArguments`): a live value, as on {@link ToolCallDeltaEvent}. */
  partialArguments?: DeepPartial<InferToolArguments<Tools[number]>> | undefined;
}

/** A `finish` event whose `toolCalls` are typed by `Tools`. */
export interface TypedFinishEvent<Tools extends readonly ToolDefinition[]> extends Omit<FinishEvent, "toolCalls"> {
  /** Every complete call, in index order. */
  toolCalls: TypedToolCall<Tools>[];
}

/**
 * The events of a stream whose tools are `Tools` (`streamToolCalls(response, { tools })` with
 * the tools written `as const` or given by validators): `tool-call` narrows by `name`, so that
 * after `event.name === "get_weather"`, `event.arguments` has that tool's type. When a tool's
 * name is not a literal type, nothing is narrowed: {@link ToolCallEvent}.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { tools: [{ name: "get_weather", schema: z.object({ city: z.string() }) }] })) {
 *   if (event.type === "tool-call" && event.name === "get_weather") console.log(event.arguments.city.toUpperCase());
 * }
 * ```
 */
export type TypedToolCallEvent<Tools extends readonly ToolDefinition[]> =
  string extends InferToolName<Tools[number]>
    ? ToolCallEvent
    :
        | Exclude<ToolCallEvent, CompletedToolCallEvent | ToolCallDeltaEvent | FinishEvent>
        | TypedCompletedToolCallEvent<Tools>
        | TypedToolCallDeltaEvent<Tools>
        | TypedFinishEvent<Tools>;
