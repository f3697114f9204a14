import { nonEmpty, SettingsError, type Env } from "../../env.ts";
import { invalidField } from "../../response/json-error.ts";
import { bedrockRecordings } from "../replay/recordings/bedrock.ts";
import type { JsonObject, Message, StreamRequest, ToolChoice } from "../../request/stream-request.ts";
import { signAwsRequest } from "./aws-sigv4.ts";
import { asObject, toTurns, type Turn } from "./conversation.ts";
import type {
  AwsSigning,
  ProviderCredentials,
  ProviderHttpRequest,
  ProviderTarget,
  UpstreamProvider,
} from "./upstream-provider.ts";

/** The region when `AWS_REGION` is not set. */
const DEFAULT_REGION = "us-east-1";
// Partition, area and number: us-east-1, us-gov-west-1, ap-southeast-2, eu-central-1. The region
// becomes a host name, so nothing else may pass.
const REGION = /^[a-z]{2}(-[a-z]+)+-\d{1,2}$/;
const ACCESS_KEY_ID = /^[A-Za-z0-9]{1,128}$/;
const SESSION_TOKEN = /^[A-Za-z0-9+/=]{1,4096}$/;
/** The signing name of Bedrock Runtime. */
const SERVICE = "bedrock";

/**
 * Amazon Bedrock's ConverseStream (`POST /model/{modelId}/converse-stream`), one API for every
 * model on Bedrock (Claude, Nova, Llama, Mistral, ...), signed with AWS Signature Version 4.
 */
export const bedrock: UpstreamProvider<"bedrock"> = {
  protocol: "bedrock",
  keyVar: "AWS_SECRET_ACCESS_KEY",
  baseUrlVar: "BEDROCK_BASE_URL",
  defaultBaseUrl: (env) => `https://bedrock-runtime.${region(env)}.amazonaws.com`,
  credentials: bedrockCredentials,
  buildRequest: buildBedrockRequest,
  recordings: bedrockRecordings,
};

/** The AWS credentials of the secrets, or undefined when neither key is set (the replay answers). */
export function bedrockCredentials(env: Env, now: () => number = Date.now): ProviderCredentials | undefined {
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID)?.trim();
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY)?.trim();
  if (accessKeyId === undefined && secretAccessKey === undefined) return undefined;
  if (accessKeyId === undefined || secretAccessKey === undefined)
    throw new SettingsError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together.");
  if (!ACCESS_KEY_ID.test(accessKeyId)) throw new SettingsError("AWS_ACCESS_KEY_ID must be letters and digits.");
  const sessionToken = nonEmpty(env.AWS_SESSION_TOKEN)?.trim();
  if (sessionToken !== undefined && !SESSION_TOKEN.test(sessionToken))
    throw new SettingsError("AWS_SESSION_TOKEN must be base64 text.");
  const credentials =
    sessionToken === undefined ? { accessKeyId, secretAccessKey } : { accessKeyId, secretAccessKey, sessionToken };
  return { apiKey: "", aws: { credentials, region: region(env), now } };
}

function region(env: Env): string {
  const value = nonEmpty(env.AWS_REGION)?.trim() ?? DEFAULT_REGION;
  if (!REGION.test(value)) throw new SettingsError("AWS_REGION must be a region name such as us-east-1.");
  return value;
}

/** The ConverseStream request; signed when the target has AWS credentials. */
export function buildBedrockRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const messages = toTurns(request.messages, toBlocks);
  const body: JsonObject = { messages: messages.map((m) => ({ role: m.role, content: m.content })) };
  const system = request.messages.flatMap((m) =>
    m.role === "system" && m.content !== "" ? [{ text: m.content }] : [],
  );
  if (system.length > 0) body["system"] = system;
  const toolConfig = toToolConfig(request, messages);
  if (toolConfig) body["toolConfig"] = toolConfig;
  const inferenceConfig: JsonObject = {};
  if (request.maxTokens !== undefined) inferenceConfig["maxTokens"] = request.maxTokens;
  if (request.temperature !== undefined) {
    if (request.temperature > 1) throw invalidField("temperature", "Bedrock models accept a temperature from 0 to 1.");
    inferenceConfig["temperature"] = request.temperature;
  }
  if (Object.keys(inferenceConfig).length > 0) body["inferenceConfig"] = inferenceConfig;
  const http: ProviderHttpRequest = {
    // Model ids have `:` and ARNs `/`: the id is one path segment, encoded (and signed encoded twice).
    url: `${target.baseUrl}/model/${encodeURIComponent(request.model)}/converse-stream`,
    headers: { "content-type": "application/json" },
    body,
    responseType: "application/vnd.amazon.eventstream",
  };
  if (target.aws) http.sign = signer(target.aws);
  return http;
}

function signer(aws: AwsSigning): NonNullable<ProviderHttpRequest["sign"]> {
  return (url, headers, body) =>
    signAwsRequest(
      { method: "POST", url, headers, body },
      aws.credentials,
      { region: aws.region, service: SERVICE },
      { date: new Date(aws.now()) },
    );
}

/**
 * A message's content blocks: earlier calls `toolUse` blocks, their results `toolResult` blocks
 * in the user's turn (turns alternate; {@link toTurns} merges them and drops empty ones).
 */
function toBlocks(message: Exclude<Message, { role: "system" }>, path: string): JsonObject[] {
  if (message.role === "tool") {
    if (message.toolCallId === undefined)
      throw invalidField(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
    return [{ toolResult: { toolUseId: message.toolCallId, content: [{ text: message.content }] } }];
  }
  // Converse refuses a blank text block.
  const text: JsonObject[] = message.content.trim() === "" ? [] : [{ text: message.content }];
  if (message.role === "user") return text;
  return [
    ...text,
    ...message.toolCalls.map((call, j): JsonObject => {
      if (call.id === null)
        throw invalidField(`${path}.tool_calls[${j}].id`, "This provider needs the id of every earlier tool call.");
      return { toolUse: { toolUseId: call.id, name: call.name, input: asObject(call.arguments) } };
    }),
  ];
}

/**
 * `toolConfig.tools` of `toolSpec`s. Converse has no "none": without tools the model cannot call
 * one, but a conversation that holds `toolUse` or `toolResult` blocks must list its tools.
 */
function toToolConfig(request: StreamRequest, turns: readonly Turn[]): JsonObject | undefined {
  const hasToolBlocks = turns.some((turn) => turn.content.some((block) => "toolUse" in block || "toolResult" in block));
  if (request.tools.length === 0) {
    if (hasToolBlocks)
      throw invalidField("tools", "Bedrock needs the tools listed when the conversation has earlier tool calls.");
    return undefined;
  }
  if (request.toolChoice?.type === "none") {
    if (hasToolBlocks)
      throw invalidField(
        "tool_choice",
        'Bedrock cannot forbid tool calls in a conversation that has earlier calls; omit `tool_choice` or use "auto".',
      );
    return undefined;
  }
  const tools = request.tools.map(({ name, description, parameters }) => ({
    toolSpec:
      description === undefined
        ? { name, inputSchema: { json: parameters } }
        : { name, description, inputSchema: { json: parameters } },
  }));
  const config: JsonObject = { tools };
  if (request.toolChoice) config["toolChoice"] = toolChoice(request.toolChoice);
  return config;
}

function toolChoice(choice: Exclude<ToolChoice, { type: "none" }>): JsonObject {
  if (choice.type === "tool") return { tool: { name: choice.name } };
  return choice.type === "required" ? { any: {} } : { auto: {} };
}
