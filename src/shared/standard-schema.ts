/**
 * The Standard Schema v1 and Standard JSON Schema v1 interfaces (standardschema.dev), written out
 * here so that the package has no dependency for them: zod 4, valibot, arktype and others
 * implement them, and any value of those libraries fits these types structurally. Types only.
 *
 * @module
 */

/** A validator of the Standard Schema v1 interface: zod 4, valibot, arktype, effect schema, ... */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The interface's members, under one key so that they never clash with a library's own API. */
  readonly "~standard": StandardSchemaV1.Props<Input, Output>;
}

/** The parts of {@link StandardSchemaV1}. */
export declare namespace StandardSchemaV1 {
  /** What a validator exposes under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the interface: always 1. */
    readonly version: 1;
    /** The library that made the validator (`zod`, `valibot`, `arktype`, ...). */
    readonly vendor: string;
    /** Checks a value: its output (defaults, coercions and transforms applied) or its issues, at once or later. */
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types, for inference only (never present at run time). */
    readonly types?: Types<Input, Output> | undefined;
  }
  /** What `validate` gives: the output, or the issues. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  /** The value passed: its output. */
  export interface SuccessResult<Output> {
    /** The output value. */
    readonly value: Output;
    /** Absent (or `undefined`) on success. */
    readonly issues?: undefined;
  }
  /** The value did not pass: why. */
  export interface FailureResult {
    /** One entry per problem. */
    readonly issues: ReadonlyArray<Issue>;
  }
  /** Options of `validate`. */
  export interface Options {
    /** Parameters of one library's own. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** One problem with a value. */
  export interface Issue {
    /** What is wrong, in the library's words. */
    readonly message: string;
    /** Where in the value, from the root: keys and indexes, bare or as `{ key }`. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A step of an issue's path. */
  export interface PathSegment {
    /** The key or index. */
    readonly key: PropertyKey;
  }
  /** The input and output types a validator advertises. */
  export interface Types<Input = unknown, Output = Input> {
    /** The type it accepts. */
    readonly input: Input;
    /** The type its output has. */
    readonly output: Output;
  }
  /** The type a validator accepts. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["input"];
  /** The type of a validator's output. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];
}

/**
 * A schema that can describe itself as JSON Schema: the Standard JSON Schema v1 interface (zod
 * 4.2+, arktype 2.1.28+, valibot through `toStandardJsonSchema`).
 */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  /** The interface's members. */
  readonly "~standard": StandardJSONSchemaV1.Props<Input, Output>;
}

/** The parts of {@link StandardJSONSchemaV1}. */
export declare namespace StandardJSONSchemaV1 {
  /** What such a schema exposes under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the interface: always 1. */
    readonly version: 1;
    /** The library that made the schema. */
    readonly vendor: string;
    /** The input and output types, for inference only. */
    readonly types?: StandardSchemaV1.Types<Input, Output> | undefined;
    /** Makes the JSON Schema of the input or of the output type. */
    readonly jsonSchema: Converter;
  }
  /** The two conversions; each may throw when the type has no JSON Schema (a transform, a `Date`). */
  export interface Converter {
    /** The JSON Schema of the values the validator accepts. */
    readonly input: (options: Options) => Record<string, unknown>;
    /** The JSON Schema of the values it outputs. */
    readonly output: (options: Options) => Record<string, unknown>;
  }
  /** The JSON Schema dialect asked for; a library throws for one it does not support. */
  export type Target = "draft-2020-12" | "draft-07" | "openapi-3.0" | ({} & string);
  /** Options of a conversion. */
  export interface Options {
    /** The dialect. */
    readonly target: Target;
    /** Parameters of one library's own. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}
