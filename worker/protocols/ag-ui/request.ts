/**
 * The request of `POST /v1/ag-ui`: AG-UI's `RunAgentInput`, as `HttpAgent` of `@ag-ui/client`
 * sends it, with the Worker's options in `forwardedProps`:
 *
 * ```jsonc
 * {
 *   "threadId": "thread_1", "runId": "run_1", "state": {},
 *   "messages": [
 *     { "id": "m1", "role": "user", "content": "Weather in Paris?" },      // or [{ "type": "text", "text": ... }]
 *     { "id": "m2", "role": "assistant", "toolCalls": [{ "id": "call_1", "type": "function", "function": { "name": "get_weather", "arguments": "{\"city\":\"Paris\"}" } }] },
 *     { "id": "m3", "role": "tool", "toolCallId": "call_1", "content": "{\"celsius\": 18}" }
 *   ],
 *   "tools": [{ "name": "get_weather", "description": "...", "parameters": { ... } }],   // the client's tools
 *   "context": [{ "description": "User's city", "value": "Paris" }],                     // sent as a system message
 *   "forwardedProps": {
 *     "model": "anthropic/claude-sonnet-4-5",   // <provider>/<model>, or a name alone (OpenAI's, offline or with its key)
 *     "run": false,                             // true: run the Worker's tools at the edge and loop, as /v1/run
 *     "tools": ["current_time"],                // run mode: the Worker's tools to offer
 *     "max_steps": 4, "tool_choice": "auto", "max_tokens": 1024, "temperature": 0.2
 *   }
 * }
 * ```
 *
 * Messages of the roles `activity` and `reasoning` are the client's own and are not sent to the
 * provider. In run mode the Worker offers its own tools: client tools in `tools` are refused
 * there (nobody would run them). Other fields of the input and of `forwardedProps` are ignored,
 * as AG-UI agents do.
 *
 * @module
 */
import type { RunnableTool } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import {
  ANY_NAME_BOUNDS,
  arrayAt,
  idAt,
  clientRequest,
  objectAt,
  runFlag,
  stringAt,
  toolCallAt,
  type WireMessage,
} from "../client-request.ts";
import type { ClientRequest } from "../../services/client-events.ts";
import { own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import { providerModel } from "../provider-model.ts";

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
  const messages = arrayAt(own(input, "messages"), "messages").flatMap((message, i) =>
    toWire(message, `messages[${i}]`),
  );
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
    },
    run ? { tools: own(props, "tools"), max_steps: own(props, "max_steps") } : undefined,
    providers,
    available,
    (field) => {
      if (field === "provider" || field === "model") return "forwardedProps.model";
      if (/^(?:tool_choice|max_tokens|temperature|max_steps)$/.test(field) || (run && /^tools(?:\[|$)/.test(field)))
        return `forwardedProps.${field}`;
      return field;
    },
    ANY_NAME_BOUNDS,
  );
  return { ...parsed, threadId, runId };
}

function toWire(value: unknown, path: string): WireMessage[] {
  const message = objectAt(value, path);
  const role = own(message, "role");
  if (role === "system" || role === "developer")
    return [{ role: "system", content: stringAt(own(message, "content"), `${path}.content`) }];
  if (role === "user") return [{ role: "user", content: userText(own(message, "content"), `${path}.content`) }];
  if (role === "tool") {
    const error = own(message, "error");
    const content =
      typeof error === "string" && error !== ""
        ? `Error: ${error}`
        : stringAt(own(message, "content"), `${path}.content`);
    return [{ role: "tool", tool_call_id: idAt(own(message, "toolCallId"), `${path}.toolCallId`), content }];
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
        tool_calls: calls.map((call, j) => toolCallAt(call, `${path}.toolCalls[${j}]`, ANY_NAME_BOUNDS)),
      },
    ];
  }
  if (role === "activity" || role === "reasoning") return [];
  throw invalidField(
    `${path}.role`,
    "`role` must be developer, system, user, assistant or tool (activity and reasoning messages are skipped).",
  );
}

/** A user message's text: a string, or its text parts; binary parts are refused. */
function userText(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  return arrayAt(value, path)
    .map((part, i) => {
      const fields = objectAt(part, `${path}[${i}]`);
      if (own(fields, "type") !== "text")
        throw invalidField(
          `${path}[${i}].type`,
          "Only text content is supported; this Worker sends no binary content to the provider.",
        );
      return stringAt(own(fields, "text"), `${path}[${i}].text`);
    })
    .join("");
}

function contextLine(value: unknown, path: string): string {
  const entry = objectAt(value, path);
  return `- ${stringAt(own(entry, "description"), `${path}.description`)}: ${stringAt(own(entry, "value"), `${path}.value`)}`;
}

function nonEmpty(value: unknown, path: string): string {
  const text = stringAt(value, path);
  if (text === "") throw invalidField(path, `\`${path}\` must not be empty.`);
  return text;
}
