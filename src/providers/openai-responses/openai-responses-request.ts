import {
  answersServerCall,
  callId,
  resultId,
  turnOf,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestFilePart,
  type RequestMessage,
  type RequestToolCall,
  type RequestToolChoice,
} from "../request.ts";
import type { JsonValue } from "../../shared/json.ts";
import { fileKind, fileUrl, hasFiles, resultBlocks } from "../media.ts";
import { isComputerCall } from "./openai-responses-computer.ts";
import { builtInItem, callerOf, callFields, reasoningItem, toolOutput } from "./openai-responses-messages.ts";
import { responsesTurnItems } from "./openai-responses-turn-items.ts";
import { openAIResponsesToolDefinitions } from "./openai-responses-tools.ts";
import { longMemberName } from "../../shared/long-member-name.ts";

/**
 * The body of a streaming `POST /responses` request: the conversation as input items (messages,
 * `function_call` and `function_call_output`; a free-text call, `inputFormat: "text"`, as
 * `custom_tool_call` and its result as `custom_tool_call_output`). A tool whose
 * `openAIResponsesTool` is a `custom` tool goes as it is, and a `tool_choice` of it as `{ type: "custom", name }`.
 *
 * @example
 * ```ts
 * const body = openAIResponsesRequestBody({ model: "gpt-5", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function openAIResponsesRequestBody(request: ProviderRequest): Fields {
  const body: Fields = {
    model: request.model,
    input: inputItems(request.messages, request.store),
    stream: true,
  };
  if (request.tools.length > 0) {
    // Responses makes function tools strict by default, which rejects most hand-written schemas. A
    // built-in tool (apply_patch, shell) goes as the Responses API takes it.
    const functions = openAIResponsesToolDefinitions(request.tools);
    body["tools"] = request.tools.map((entry, i) => entry.openAIResponsesTool ?? { ...functions[i], strict: false });
  }
  if (request.toolChoice) body["tool_choice"] = toolChoice(request.toolChoice, request.tools);
  if (request.maxTokens !== undefined) body["max_output_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  if (request.store !== undefined) body["store"] = request.store;
  if (request.reasoning?.type === "on") {
    const { effort, summary } = request.reasoning;
    body["reasoning"] = summary === undefined ? { effort } : { effort, summary };
    // The reasoning items come back with their encrypted content, which the next turn can carry
    // back whether or not the provider stored the response.
    body["include"] = ["reasoning.encrypted_content"];
  }
  return body;
}

/** The conversation as input items; a result of a built-in tool's call is an item of its kind. */
function inputItems(messages: readonly RequestMessage[], store: boolean | undefined): Fields[] {
  const calls = new Map<string, RequestToolCall>();
  const served = answersServerCall(messages);
  return messages.flatMap((message, i) => {
    if (message.role === "assistant") for (const call of message.toolCalls) if (call.id) calls.set(call.id, call);
    return served(message) ? [] : toInputItems(message, `messages[${i}]`, calls, store);
  });
}

function toInputItems(
  message: RequestMessage,
  path: string,
  calls: ReadonlyMap<string, RequestToolCall>,
  store: boolean | undefined,
): Fields[] {
  switch (message.role) {
    case "system":
      return [{ role: message.role, content: message.content }];
    case "user":
      if (!hasFiles(message)) return [{ role: message.role, content: message.content }];
      return [{ role: "user", content: resultBlocks(message, path, inputPart) }];
    case "assistant":
      // In the order the stream gave them (`order`), else reasoning, text, calls; a reasoning item
      // with nothing after it is left out (responsesTurnItems).
      return responsesTurnItems<RequestToolCall>(turnOf(message), {
        // An item of no encrypted content goes back by its id, which OpenAI looks up in the stored
        // response; with `store: false` nothing is stored (OpenAI answers 404 "Items are not
        // persisted when `store` is set to false"), so such an item is left out, unless it carries
        // its raw reasoning (`content`: gpt-oss servers, which keep nothing and take it back).
        reasoning: (part) =>
          store === false && part.encryptedContent === undefined && part.content === undefined
            ? []
            : [reasoningItem(part)],
        text: (text) => ({ role: "assistant", content: text }),
        call: (call, outputs, i) => {
          const id = callId(call, `${path}.tool_calls[${i}]`);
          const builtIn = builtInItem({ ...call, id });
          // A hosted shell's call (OpenAI ran it) goes back with its output.
          if (builtIn) return [builtIn, ...outputs.shellOutput(call.id)];
          const server = outputs.afterCall(call);
          if (server) return server;
          // Another call OpenAI ran, of no item of its own, is left out, never a `function_call` to answer.
          if (call.providerExecuted) return [];
          // A custom tool's call (free text) goes back as the `custom_tool_call` it came as.
          const item = isTextCall(call)
            ? { type: "custom_tool_call", call_id: id, name: call.name, input: call.arguments }
            : { type: "function_call", call_id: id, name: call.name, arguments: JSON.stringify(call.arguments) };
          return [{ ...item, ...callFields(call) }];
        },
      });
    case "tool": {
      const id = resultId(message, path);
      const call = calls.get(id);
      // A computer call's screenshot may come as the image part a tool message carries.
      const shot = call && isComputerCall(call) ? message.parts?.find(isImage) : undefined;
      const result = shot ? { image_url: fileUrl(shot) } : resultValue(message.content);
      const output =
        call && builtInItem(call)
          ? toolOutput({ call, output: result, ...(message.isError ? { isError: true } : {}) }, `${path}.content`)
          : undefined;
      // A result with files is a list of input parts (a screenshot a tool took).
      const value = hasFiles(message) ? resultBlocks(message, path, inputPart) : message.content;
      // The output's type is its call's: OpenAI refuses one whose `call_id` names no call of that type.
      const type = call && isTextCall(call) ? "custom_tool_call_output" : "function_call_output";
      return [output ?? { type, call_id: id, output: value, ...(call ? callerOf(call) : {}) }];
    }
  }
}

/** A free-text call (`inputFormat: "text"`) that holds its text: a `custom_tool_call`; anything else is a function's call. */
const isTextCall = (call: RequestToolCall): call is RequestToolCall & { arguments: string } =>
  call.inputFormat === "text" && typeof call.arguments === "string";

function toolChoice(choice: RequestToolChoice, tools: ProviderRequest["tools"]): Fields | string {
  if (choice.type !== "tool") return choice.type;
  const builtIn = tools.find((tool) => tool.name === choice.name)?.openAIResponsesTool?.["type"];
  // The built-in tools OpenAI can be made to call: `ToolChoiceApplyPatch`, `ToolChoiceShell`; a
  // custom tool by its name (`ToolChoiceCustom`).
  if (builtIn === "custom") return { type: "custom", name: choice.name };
  return builtIn === "apply_patch" || builtIn === "shell" ? { type: builtIn } : { type: "function", name: choice.name };
}

/** An image part (a computer call's screenshot, when the result is one's). */
const isImage = (part: RequestContentPart): part is RequestFilePart =>
  part.type === "file" && fileKind(part) === "image";

/**
 * A result's text as the value its item takes: the JSON list a shell's output came as, else the
 * text (also one with a member name V8 parses in quadratic time: ../../shared/long-member-name.ts).
 */
function resultValue(content: string): JsonValue {
  if (!content.startsWith("[") || longMemberName(content) !== undefined) return content;
  try {
    return JSON.parse(content) as JsonValue;
  } catch {
    return content;
  }
}

/**
 * A part as a Responses input part: `input_image` (a URL or a data URL, with its `detail`), or
 * `input_file` (`file_data` as a data URL with its name, or `file_url`), which OpenAI reads itself.
 */
function inputPart(part: RequestContentPart): Fields {
  if (part.type === "text") return { type: "input_text", text: part.text };
  if (fileKind(part) === "image")
    return { type: "input_image", image_url: fileUrl(part), detail: part.detail ?? "auto" };
  if (part.source.type === "url") return { type: "input_file", file_url: part.source.url };
  return { type: "input_file", filename: part.filename ?? "file", file_data: fileUrl(part) };
}
