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
 *     "model": "anthropic/claude-sonnet-4-5",   // <provider>/<model>
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
import type { RunnableTool } from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { argumentsOf, arrayAt, idAt, clientRequest, objectAt, runFlag, stringAt, type ClientRequest, type WireMessage } from "./client-request.ts";
import { providerModel } from "./provider-model.ts";

/** A validated `POST /v1/ag-ui` request. */
export type AGUIRequest = ClientRequest & { threadId: string; runId: string };

/** Validates a parsed `RunAgentInput`; throws a 400 `HttpError` naming the field at fault. */
export function parseAGUIRequest(body: unknown, providers: readonly string[], available: Readonly<Record<string, RunnableTool>>): AGUIRequest {
  const input = objectAt(body, "", "a JSON object (RunAgentInput)");
  const threadId = nonEmpty(input["threadId"], "threadId");
  const runId = nonEmpty(input["runId"], "runId");
  const props = input["forwardedProps"] === undefined || input["forwardedProps"] === null ? {} : objectAt(input["forwardedProps"], "forwardedProps");
  const { provider, model } = providerModel(props["model"], providers, "forwardedProps.model");
  const run = runFlag(props["run"], "forwardedProps.run");
  const clientTools = input["tools"] === undefined || input["tools"] === null ? [] : arrayAt(input["tools"], "tools");
  if (run && clientTools.length > 0) {
    throw invalidField("tools", "In run mode the Worker runs its own tools (forwardedProps.tools); client tools would never run. Send them without forwardedProps.run.");
  }
  if (!run && props["max_steps"] !== undefined) throw invalidField("forwardedProps.max_steps", "`max_steps` applies to run mode only (`forwardedProps.run: true`).");
  if (!run && props["tools"] !== undefined) throw invalidField("forwardedProps.tools", "`forwardedProps.tools` names the Worker's tools for run mode (`forwardedProps.run: true`); define client tools in `tools`.");
  const context = input["context"] === undefined || input["context"] === null ? [] : arrayAt(input["context"], "context").map((entry, i) => contextLine(entry, `context[${i}]`));
  const messages = arrayAt(input["messages"], "messages").flatMap((message, i) => toWire(message, `messages[${i}]`));
  if (context.length > 0) messages.unshift({ role: "system", content: `Context:\n${context.join("\n")}` });
  const parsed = clientRequest(
    { provider, model, messages, tools: run ? undefined : clientTools, tool_choice: props["tool_choice"], max_tokens: props["max_tokens"], temperature: props["temperature"] },
    run ? { tools: props["tools"], max_steps: props["max_steps"] } : undefined,
    providers,
    available,
  );
  return { ...parsed, threadId, runId };
}

function toWire(value: unknown, path: string): WireMessage[] {
  const message = objectAt(value, path);
  const role = message["role"];
  if (role === "system" || role === "developer") return [{ role: "system", content: stringAt(message["content"], `${path}.content`) }];
  if (role === "user") return [{ role: "user", content: userText(message["content"], `${path}.content`) }];
  if (role === "tool") {
    const error = message["error"];
    const content = typeof error === "string" && error !== "" ? `Error: ${error}` : stringAt(message["content"], `${path}.content`);
    return [{ role: "tool", tool_call_id: idAt(message["toolCallId"], `${path}.toolCallId`), content }];
  }
  if (role === "assistant") {
    const content = message["content"] === undefined || message["content"] === null ? "" : stringAt(message["content"], `${path}.content`);
    const calls = message["toolCalls"] === undefined || message["toolCalls"] === null ? [] : arrayAt(message["toolCalls"], `${path}.toolCalls`);
    return [
      {
        role: "assistant",
        content,
        tool_calls: calls.map((call, j) => {
          const at = `${path}.toolCalls[${j}]`;
          const wire = objectAt(call, at);
          const fn = objectAt(wire["function"], `${at}.function`);
          return { id: idAt(wire["id"], `${at}.id`), name: stringAt(fn["name"], `${at}.function.name`), arguments: argumentsOf(stringAt(fn["arguments"] ?? "{}", `${at}.function.arguments`)) };
        }),
      },
    ];
  }
  if (role === "activity" || role === "reasoning") return [];
  throw invalidField(`${path}.role`, "`role` must be developer, system, user, assistant or tool (activity and reasoning messages are skipped).");
}

/** A user message's text: a string, or its text parts; binary parts are refused. */
function userText(value: unknown, path: string): string {
  if (typeof value === "string") return value;
  return arrayAt(value, path)
    .map((part, i) => {
      const fields = objectAt(part, `${path}[${i}]`);
      if (fields["type"] !== "text") throw invalidField(`${path}[${i}].type`, "Only text content is supported; this Worker sends no binary content to the provider.");
      return stringAt(fields["text"], `${path}[${i}].text`);
    })
    .join("");
}

function contextLine(value: unknown, path: string): string {
  const entry = objectAt(value, path);
  return `- ${stringAt(entry["description"], `${path}.description`)}: ${stringAt(entry["value"], `${path}.value`)}`;
}

function nonEmpty(value: unknown, path: string): string {
  const text = stringAt(value, path);
  if (text === "") throw invalidField(path, `\`${path}\` must not be empty.`);
  return text;
}
