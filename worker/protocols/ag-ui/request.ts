/**
 * The request of `POST /v1/ag-ui`: AG-UI's `RunAgentInput`, as `HttpAgent` of `@ag-ui/client`
 * sends it, with the Worker's options in `forwardedProps`:
 *
 * ```jsonc
 * {
 *   "threadId": "thread_1", "runId": "run_1", "state": {},
 *   "messages": [
 *     { "id": "m1", "role": "user", "content": "Weather in Paris?" },      // or parts: text, image, audio, video, document
 *     { "id": "m2", "role": "assistant", "toolCalls": [{ "id": "call_1", "type": "function", "function": { "name": "get_weather", "arguments": "{\"city\":\"Paris\"}" } }] },
 *     { "id": "m3", "role": "tool", "toolCallId": "call_1", "content": "{\"celsius\": 18}" }   // or parts, as a user's
 *   ],
 *   "tools": [{ "name": "get_weather", "description": "...", "parameters": { ... } }],   // the client's tools
 *   "context": [{ "description": "User's city", "value": "Paris" }],                     // sent as a system message
 *   "forwardedProps": {
 *     "model": "anthropic/claude-sonnet-4-6",   // <provider>/<model>, or a name alone (OpenAI's, offline or with its key)
 *     "run": false,                             // true: run the Worker's tools at the edge and loop, as /v1/run
 *     "tools": ["current_time"],                // run mode: the Worker's tools to offer
 *     "max_steps": 4, "tool_choice": "auto", "max_tokens": 1024, "temperature": 0.2,
 *     "top_p": 0.9, "top_k": 40, "stop": ["END"], "seed": 7    // and the penalties, where the provider has them
 *   }
 * }
 * ```
 *
 * Messages of the roles `activity` and `reasoning` are the client's own and are not sent to the
 * provider; a reasoning message's `encryptedValue` (the Worker's `REASONING_ENCRYPTED_VALUE`)
 * goes back to the provider as the reasoning of its assistant turn, and its text as the turn's reasoning text (Ollama's `thinking`; Cohere's `tool_plan`, less the sealed thinking). In run mode the Worker offers its own tools: client tools in `tools` are refused
 * there (nobody would run them). Other fields of the input and of `forwardedProps` are ignored,
 * as AG-UI agents do.
 *
 * @module
 */
import type { ReasoningPart, RunnableTool } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import {
  ANY_NAME_BOUNDS,
  arrayAt,
  idAt,
  clientRequest,
  objectAt,
  runFlag,
  samplingOf,
  stringAt,
  toolCallAt,
  type WireMessage,
} from "../client-request.ts";
import type { ClientRequest } from "../../services/client-events.ts";
import { own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import { checkedWireFile, type WirePart } from "../../request/file-parts.ts";
import { fileIdError, fileOfUrl } from "../client-files.ts";
import { providerModel } from "../provider-model.ts";
import { SAMPLING_FIELDS } from "../../request/parse-sampling.ts";
import { callIdOf, echoedCall } from "../thought-signatures.ts";
import { unsealPart, withReasoningText } from "../reasoning-state.ts";

/** The sampling fields, which a 400 names in `forwardedProps`. */
const SAMPLED: ReadonlySet<string> = new Set(SAMPLING_FIELDS);

/** A validated `POST /v1/ag-ui` request. */
export type AGUIRequest = ClientRequest & { threadId: string; runId: string };

/** Validates a parsed `RunAgentInput`; throws a 400 `HttpError` naming the field at fault. */
export function parseAGUIRequest(
  body: unknown,
  providers: readonly string[],
  available: Readonly<Record<string, RunnableTool>>,
  bare?: string,
): AGUIRequest {
  const input = objectAt(body, "", "a JSON object (RunAgentInput)");
  const deep = tooDeep(input);
  if (deep !== undefined) throw tooDeepError(deep);
  const threadId = nonEmpty(own(input, "threadId"), "threadId");
  const runId = nonEmpty(own(input, "runId"), "runId");
  const props =
    own(input, "forwardedProps") === undefined || own(input, "forwardedProps") === null
      ? {}
      : objectAt(own(input, "forwardedProps"), "forwardedProps");
  const { provider, model } = providerModel(own(props, "model"), providers, "forwardedProps.model", bare);
  const run = runFlag(own(props, "run"), "forwardedProps.run");
  const clientTools =
    own(input, "tools") === undefined || own(input, "tools") === null ? [] : arrayAt(own(input, "tools"), "tools");
  if (run && clientTools.length > 0) {
    throw invalidField(
      "tools",
      "In run mode the Worker runs its own tools (forwardedProps.tools); client tools would never run. Send them without forwardedProps.run.",
    );
  }
  if (!run && own(props, "max_steps") !== undefined)
    throw invalidField(
      "forwardedProps.max_steps",
      "`max_steps` applies to run mode only (`forwardedProps.run: true`).",
    );
  if (!run && own(props, "tools") !== undefined)
    throw invalidField(
      "forwardedProps.tools",
      "`forwardedProps.tools` names the Worker's tools for run mode (`forwardedProps.run: true`); define client tools in `tools`.",
    );
  const context =
    own(input, "context") === undefined || own(input, "context") === null
      ? []
      : arrayAt(own(input, "context"), "context").map((entry, i) => contextLine(entry, `context[${i}]`));
  const messages = historyOf(arrayAt(own(input, "messages"), "messages"), provider);
  if (context.length > 0) messages.unshift({ role: "system", content: `Context:\n${context.join("\n")}` });
  const parsed = clientRequest(
    {
      provider,
      model,
      messages,
      tools: run ? undefined : clientTools,
      tool_choice: own(props, "tool_choice"),
      max_tokens: own(props, "max_tokens"),
      temperature: own(props, "temperature"),
      sampling: samplingOf(props, SAMPLING_FIELDS),
    },
    run ? { tools: own(props, "tools"), max_steps: own(props, "max_steps") } : undefined,
    providers,
    available,
    (field) => {
      if (field === "provider" || field === "model") return "forwardedProps.model";
      const prop = /^(?:tool_choice|max_tokens|temperature|max_steps)$/.test(field) || SAMPLED.has(field);
      if (prop || (run && /^tools(?:\[|$)/.test(field))) return `forwardedProps.${field}`;
      return field;
    },
    ANY_NAME_BOUNDS,
  );
  return { ...parsed, threadId, runId };
}

/**
 * The history as the provider's messages. A reasoning message's `encryptedValue` (a seal of the
 * Worker's, ../reasoning-state.ts) goes back as a part of the assistant turn it sits in: the
 * assistant message right before it (a block that came after the turn's text or calls began),
 * else the next one; one with neither, or with a value the Worker did not seal, carries nothing.
 * Its text goes to the same turn as the turn's reasoning text, which Ollama reads back (`thinking`).
 */
function historyOf(values: readonly unknown[], provider: string): WireMessage[] {
  const wire: WireMessage[] = [];
  let pending: ReasoningPart[] = [];
  let thought = "";
  values.forEach((value, i) => {
    const message = objectAt(value, `messages[${i}]`);
    if (own(message, "role") === "reasoning") {
      const sealed = own(message, "encryptedValue");
      const part =
        sealed === undefined || sealed === null
          ? undefined
          : unsealPart(stringAt(sealed, `messages[${i}].encryptedValue`), {
              path: `messages[${i}].encryptedValue`,
              provider,
            });
      // Its text is the turn's reasoning text, which Ollama takes back as `thinking` (as Messages' thinking blocks).
      const text = own(message, "content");
      const last = wire.at(-1);
      if (last?.role === "assistant") {
        if (part) (last.reasoning_parts ??= []).push(part);
        const reasoning = typeof text === "string" ? withReasoningText(last.reasoning, text) : last.reasoning;
        if (reasoning !== undefined) last.reasoning = reasoning;
      } else {
        if (part) pending.push(part);
        if (typeof text === "string") thought = withReasoningText(thought, text) ?? "";
      }
      return;
    }
    for (const turn of toWire(message, `messages[${i}]`, provider)) {
      if (turn.role === "assistant" && pending.length > 0) turn.reasoning_parts = pending;
      if (turn.role === "assistant" && thought !== "") turn.reasoning = thought;
      if (turn.role !== "system") [pending, thought] = [[], ""];
      wire.push(turn);
    }
  });
  return wire;
}

function toWire(value: unknown, path: string, provider: string): WireMessage[] {
  const message = objectAt(value, path);
  const role = own(message, "role");
  if (role === "system" || role === "developer")
    return [{ role: "system", content: stringAt(own(message, "content"), `${path}.content`) }];
  if (role === "user")
    return [{ role: "user", content: userContent(own(message, "content"), `${path}.content`, provider) }];
  if (role === "tool") {
    // The id the provider knows (an Interactions call's own, its signature left on the call).
    const id = callIdOf(idAt(own(message, "toolCallId"), `${path}.toolCallId`), provider);
    const error = own(message, "error");
    if (typeof error === "string" && error !== "")
      return [{ role: "tool", tool_call_id: id, content: `Error: ${error}` }];
    // AG-UI 1.0's result is a string or parts, as a user message's: its text, and its files beside it.
    const given = userContent(own(message, "content"), `${path}.content`, provider);
    if (typeof given === "string") return [{ role: "tool", tool_call_id: id, content: given }];
    const files = given.flatMap((part) => (part.type === "file" ? [part] : []));
    const content = given.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    return [{ role: "tool", tool_call_id: id, content, files }];
  }
  if (role === "assistant") {
    const content =
      own(message, "content") === undefined || own(message, "content") === null
        ? ""
        : stringAt(own(message, "content"), `${path}.content`);
    const calls =
      own(message, "toolCalls") === undefined || own(message, "toolCalls") === null
        ? []
        : arrayAt(own(message, "toolCalls"), `${path}.toolCalls`);
    return [
      {
        role: "assistant",
        content,
        tool_calls: calls.map((call, j) => {
          const at = `${path}.toolCalls[${j}]`;
          // A Gemini call's id carries its signature: the provider gets its own id, the signature on the call.
          const sent = toolCallAt(call, at, ANY_NAME_BOUNDS);
          return { ...sent, ...echoedCall(sent.id, provider, `${at}.id`) };
        }),
      },
    ];
  }
  if (role === "activity" || role === "reasoning") return [];
  throw invalidField(
    `${path}.role`,
    "`role` must be developer, system, user, assistant or tool (activity and reasoning messages are skipped).",
  );
}

/**
 * A user message's content: a string, or its parts (AG-UI 1.0's `text`, and `image`, `audio`,
 * `video` and `document` with a `data` source, base64 with its `mimeType`, or a `url` source); a
 * `file` source names a file stored elsewhere, which this Worker does not have: a 400.
 */
function userContent(value: unknown, path: string, provider: string): string | WirePart[] {
  if (typeof value === "string") return value;
  const parts = arrayAt(value, path).map((part, i): WirePart => {
    const at = `${path}[${i}]`;
    const fields = objectAt(part, at);
    const type = own(fields, "type");
    if (type === "text") return { type: "text", text: stringAt(own(fields, "text"), `${at}.text`) };
    if (!MEDIA.has(type as string))
      throw invalidField(`${at}.type`, "A content part is text, image, audio, video or document.");
    const source = objectAt(own(fields, "source"), `${at}.source`);
    const kind = own(source, "type");
    const given = own(source, "mimeType") ?? undefined;
    const mimeType = given === undefined ? undefined : stringAt(given, `${at}.source.mimeType`);
    const value = stringAt(own(source, "value"), `${at}.source.value`);
    if (kind === "data")
      return checkedWireFile({ type: "file", media_type: mimeType ?? "", data: value }, `${at}.source`, provider);
    if (kind === "url")
      return fileOfUrl(value, `${at}.source`, provider, mimeType ?? `${type === "document" ? "application" : type}/*`);
    if (kind === "file") throw fileIdError(`${at}.source.value`);
    throw invalidField(`${at}.source.type`, "A part's source is data, url or file.");
  });
  if (parts.some((part) => part.type === "file")) return parts;
  return parts.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** AG-UI 1.0's binary content parts. */
const MEDIA: ReadonlySet<string> = new Set(["image", "audio", "video", "document"]);

function contextLine(value: unknown, path: string): string {
  const entry = objectAt(value, path);
  return `- ${stringAt(own(entry, "description"), `${path}.description`)}: ${stringAt(own(entry, "value"), `${path}.value`)}`;
}

function nonEmpty(value: unknown, path: string): string {
  const text = stringAt(value, path);
  if (text === "") throw invalidField(path, `\`${path}\` must not be empty.`);
  return text;
}
