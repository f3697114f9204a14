/**
 * The `block` of a `{type: "block"}` reasoning part, as the library's decoders keep one in
 * `finish.reasoningParts` (each shape below names the decoder that makes it), checked field by
 * field: a block of a shape no decoder makes, or with a field of the wrong type, is a 400 naming
 * the field. The body's size and depth are bounded before (`MAX_BODY_BYTES`, `tooDeep`), so a
 * block's members are read here without a bound of their own. `test/worker/kept-blocks.test.ts`
 * sends every recording's parts through `/v1/stream`'s parser: a decoder that keeps a new shape
 * fails it until the shape is here.
 *
 * @module
 */
import { GEMINI_KEPT_PARTS, type JsonValue } from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "./json-fields.ts";

/**
 * Anthropic's blocks that go back to it unchanged, in their place ("Send the assistant message
 * back unchanged, this block included"): a `/v1/stream` block part's, a Messages client's.
 */
export const ANTHROPIC_KEPT_BLOCKS: readonly string[] = [
  "compaction",
  "fallback",
  "mcp_tool_listing",
  "container_upload",
];

/**
 * OpenAI's items that change a conversation's state where they stand: a `compaction_trigger`
 * (compacts the context; the last input item) and a `configuration_update` (a reasoning effort or
 * text format from that item on).
 */
const OPENAI_STATE_ITEMS: ReadonlySet<unknown> = new Set(["compaction_trigger", "configuration_update"]);

/**
 * Whether `type` is one of OpenAI's items that change a conversation's state: a 400 naming `path`
 * when `provider` is not OpenAI Responses, which has no such state (an answer as if the item had
 * not been sent would be wrong), on `/v1/stream` as on `/v1/responses`.
 *
 * @example
 * ```ts
 * if (isOpenAIStateItem(type, `${path}.type`, provider)) parts.push({ type: "block", block: item });
 * ```
 */
export function isOpenAIStateItem(type: unknown, path: string, provider: string): boolean {
  if (!OPENAI_STATE_ITEMS.has(type)) return false;
  if (provider !== "openai-responses")
    throw invalidField(
      path,
      `\`${String(type)}\` items change an OpenAI conversation's state: only an \`openai-responses/...\` model takes them.`,
    );
  return true;
}

type Block = Record<string, unknown>;
/** The checks of one shape's fields: each throws a 400 naming the field at fault. */
type Check = (block: Block, path: string) => void;

/** `block[field]` when it is a string (non-empty unless `empty`), else a 400 naming it. */
function stringAt(block: Block, field: string, path: string, empty = false): void {
  const value = own(block, field);
  if (typeof value !== "string" || (!empty && value === ""))
    throw invalidField(`${path}.${field}`, `\`${path}.${field}\` must be a${empty ? "" : " non-empty"} string.`);
}

/** `block[field]`, when present, a non-empty string; else a 400 naming it. */
const optionalString = (block: Block, field: string, path: string): void => {
  if (own(block, field) !== undefined) stringAt(block, field, path);
};

/**
 * `block[field]` when it is an array, else a 400 naming it: its members go to the provider as they
 * came (a decoder keeps a provider's list verbatim, as a reasoning item's `summary`).
 */
function arrayAt(block: Block, field: string, path: string): void {
  if (!Array.isArray(own(block, field)))
    throw invalidField(`${path}.${field}`, `\`${path}.${field}\` must be an array.`);
}

/** `block[field]` when it is an object, else a 400 naming it; the object. */
function objectAt(block: Block, field: string, path: string): Block {
  const value = own(block, field);
  if (!isObject(value)) throw invalidField(`${path}.${field}`, `\`${path}.${field}\` must be an object.`);
  return value;
}

/**
 * A cited text: Anthropic's (`anthropic-citations.ts`) and Cohere's (with its `start`) with
 * `citations`, OpenAI Responses' (with its message's `id`), OpenAI Chat's and Gemini
 * Interactions' with `annotations` (`*-citations.ts`).
 */
const citedText: Check = (block, path) => {
  stringAt(block, "text", path, true);
  const cited = ["citations", "annotations"].filter((field) => own(block, field) !== undefined);
  if (cited.length === 0)
    throw invalidField(`${path}.citations`, `\`${path}\` must have its \`citations\` or \`annotations\`.`);
  for (const field of cited) arrayAt(block, field, path);
  optionalString(block, "id", path);
  const start = own(block, "start");
  if (start !== undefined && !Number.isSafeInteger(start))
    throw invalidField(`${path}.start`, `\`${path}.start\` must be an integer.`);
};

/** No checks beyond the type: a block sent back as it came, whose fields only the provider reads. */
const asItCame: Check = () => undefined;

/**
 * The blocks with a `type` the decoders keep, and the items clients send back beside them:
 * Anthropic's kept blocks (`anthropic-kept-blocks.ts`) with its server tools' calls, a cited text
 * block, a message's `phase` (`openai-responses-citations.ts`), OpenAI's own tools' items
 * (`openai-responses-delta-stream.ts`'s `KEPT`: a server tool search's call and output, a program
 * and its output, a hosted shell's output, a remote MCP server's tool list) and the items that change an OpenAI conversation's
 * state. A server tool's call or result step (`*_call`, `*_result`) is {@link isServerStep}'s.
 */
const TYPED: ReadonlyMap<unknown, Check> = new Map<unknown, Check>([
  ...ANTHROPIC_KEPT_BLOCKS.map((type): [string, Check] => [type, asItCame]),
  ...[
    "server_tool_use",
    "mcp_tool_use",
    "tool_search_call",
    "tool_search_output",
    "program",
    "program_output",
    "mcp_list_tools",
  ].map((type): [string, Check] => [type, asItCame]),
  ...[...OPENAI_STATE_ITEMS].map((type): [unknown, Check] => [type, asItCame]),
  ["text", citedText],
  ["phase", (block, path) => stringAt(block, "phase", path)],
  [
    "shell_call_output",
    (block, path) => {
      stringAt(block, "call_id", path);
      arrayAt(block, "output", path);
    },
  ],
]);

/**
 * A server tool's call or result kept whole: Anthropic's `*_tool_result` blocks, OpenAI's
 * `web_search_call`, `code_interpreter_call`, ... items, a Gemini Interactions built-in tool's
 * step (`google_search_call`, `code_execution_result`, ...); never the client's own function
 * steps.
 */
const isServerStep = (type: unknown): boolean =>
  typeof type === "string" &&
  /^[a-z][a-z0-9_]*_(call|result)$/.test(type) &&
  type !== "function_call" &&
  type !== "function_result";

/**
 * The blocks without a `type` that are one data member: Gemini's sources of a response
 * (`gemini-grounding.ts`), Bedrock's result of a tool it ran (`bedrock-converse.ts`), its cited
 * text (`bedrock-citations.ts`) and an image the model made (`bedrock-images.ts`: its `format` and
 * its bytes, base64).
 */
const UNTYPED: ReadonlyMap<string, Check> = new Map<string, Check>([
  ["groundingMetadata", (block, path) => void objectAt(block, "groundingMetadata", path)],
  ["citationMetadata", (block, path) => void objectAt(block, "citationMetadata", path)],
  ["urlContextMetadata", (block, path) => void objectAt(block, "urlContextMetadata", path)],
  [
    "toolResult",
    (block, path) => {
      const result = objectAt(block, "toolResult", path);
      stringAt(result, "toolUseId", `${path}.toolResult`);
      arrayAt(result, "content", `${path}.toolResult`);
    },
  ],
  [
    "image",
    (block, path) => {
      const image = objectAt(block, "image", path);
      stringAt(image, "format", `${path}.image`);
      stringAt(objectAt(image, "source", `${path}.image`), "bytes", `${path}.image.source`);
    },
  ],
  [
    "citationsContent",
    (block, path) => {
      const cited = objectAt(block, "citationsContent", path);
      arrayAt(cited, "citations", `${path}.citationsContent`);
      arrayAt(cited, "content", `${path}.citationsContent`);
    },
  ],
]);

/**
 * Gemini's data members a kept part never has beside its own (a part is one of them): `fileData`, and
 * a `functionResponse`, whose `parts` may hold one, would name a file for Gemini to read with the
 * deployment's project (the storage a client's file part may not name: file-parts.ts); a
 * `functionCall` is a call the client sends as one.
 */
const GEMINI_OTHER_DATA: readonly string[] = ["fileData", "functionResponse", "functionCall"];

/**
 * One of Gemini's parts kept whole (`gemini-delta-stream.ts`: a server tool's `toolCall` or
 * `toolResponse`, `executableCode`, `codeExecutionResult`, a generated image's `inlineData`), with
 * its `thoughtSignature` if any, and none of {@link GEMINI_OTHER_DATA}.
 */
const isGeminiPart = (block: Block): boolean =>
  GEMINI_OTHER_DATA.every((key) => own(block, key) === undefined) &&
  GEMINI_KEPT_PARTS.some((key) => isObject(own(block, key)));

/** The check of an untyped block's shape: its one member's, or a Gemini part's. */
function untypedCheck(block: Block): Check | undefined {
  const keys = Object.keys(block);
  const only = keys.length === 1 ? UNTYPED.get(keys[0]!) : undefined;
  if (only) return only;
  if (isGeminiPart(block))
    return (part, path) => {
      if (own(part, "thoughtSignature") !== undefined) stringAt(part, "thoughtSignature", path);
    };
  return undefined;
}

/**
 * A kept block as a decoder kept it (see the module's doc), its fields checked; else a 400
 * naming `path`, or the field at fault below it.
 *
 * @example
 * ```ts
 * keptBlockAt({ groundingMetadata: { webSearchQueries: ["oslo weather"] } }, "messages[1].reasoning_parts[0].block");
 * ```
 */
export function keptBlockAt(value: unknown, path: string): { [key: string]: JsonValue } {
  const type = isObject(value) ? own(value, "type") : undefined;
  const check = !isObject(value)
    ? undefined
    : type === undefined
      ? untypedCheck(value)
      : (TYPED.get(type) ?? (isServerStep(type) ? asItCame : undefined));
  if (!check)
    throw invalidField(
      path,
      `\`${path}\` must be a block as \`finish.reasoningParts\` gave it: a kept Anthropic block, a server tool's call or result, a cited text block, an OpenAI tool's item, a compaction_trigger or configuration_update item (to an OpenAI Responses model), a Gemini part kept whole or its grounding, or a Bedrock tool result, cited text or image.`,
    );
  check(value as Block, path);
  return value as { [key: string]: JsonValue };
}
