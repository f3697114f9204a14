// The `$schema` URIs of the JSON Schema drafts, and the two schema checks as the draft cases call
// them: the final check's issues for a value, and checkToolSchema's as `path: message` lines.
import type { JsonValue, ToolSchema } from "../../src/index.ts";
import { checkToolArguments, checkToolSchema } from "../../src/index.ts";

export const DRAFT4 = "http://json-schema.org/draft-04/schema#";
export const DRAFT6 = "http://json-schema.org/draft-06/schema#";
export const DRAFT7 = "http://json-schema.org/draft-07/schema#";
export const DRAFT2019 = "https://json-schema.org/draft/2019-09/schema";
export const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";

/** The final check's issues for `value` against `schema`. */
export const check = (value: unknown, schema: unknown): string[] =>
  checkToolArguments(value as JsonValue, schema as ToolSchema);

/** checkToolSchema's issues for `schema` (at `parameters`), each as `path: message`. */
export const issues = (schema: unknown): string[] =>
  checkToolSchema(schema).map((issue) => `${issue.path}: ${issue.message}`);
