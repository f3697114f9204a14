import { nonEmpty, SettingsError, type Env } from "../../env.ts";
import { bedrockOutputConfig } from "../../request/output-format.ts";
import { bedrockRecordings } from "../replay/recordings/bedrock.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { bedrockAuthRefusal } from "./aws-refusal.ts";
import { signAwsRequest } from "./aws-sigv4.ts";
import { requestBody } from "./request-body.ts";
import type {
  AwsSigning,
  ProviderCredentials,
  ProviderHttpRequest,
  ProviderTarget,
  ToolNameRule,
  UpstreamProvider,
} from "./upstream-provider.ts";

// Bedrock Converse's ToolSpecification: length 1 to 64, pattern `[a-zA-Z0-9_-]+`.
const BEDROCK_NAMES: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };

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
  // A 403 is not always the secret: AccessDeniedException is a model the account has no access to.
  authRefusal: bedrockAuthRefusal,
  defaultBaseUrl: (env) => `https://bedrock-runtime.${region(env)}.amazonaws.com`,
  credentials: bedrockCredentials,
  buildRequest: buildBedrockRequest,
  toolNames: BEDROCK_NAMES,
  recordings: bedrockRecordings,
};

/** The AWS credentials of the secrets, or undefined when neither key is set (the replay answers). */
export function bedrockCredentials(env: Env, now: () => number = Date.now): ProviderCredentials | undefined {
  const accessKeyId = nonEmpty(env.AWS_ACCESS_KEY_ID)?.trim();
  const secretAccessKey = nonEmpty(env.AWS_SECRET_ACCESS_KEY)?.trim();
  if (accessKeyId === undefined && secretAccessKey === undefined) return undefined;
  if (accessKeyId === undefined || secretAccessKey === undefined)
    throw new SettingsError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", "must be set together.");
  if (!ACCESS_KEY_ID.test(accessKeyId)) throw new SettingsError("AWS_ACCESS_KEY_ID", "must be letters and digits.");
  const sessionToken = nonEmpty(env.AWS_SESSION_TOKEN)?.trim();
  if (sessionToken !== undefined && !SESSION_TOKEN.test(sessionToken))
    throw new SettingsError("AWS_SESSION_TOKEN", "must be base64 text.");
  const credentials =
    sessionToken === undefined ? { accessKeyId, secretAccessKey } : { accessKeyId, secretAccessKey, sessionToken };
  return { apiKey: "", aws: { credentials, region: region(env), now } };
}

function region(env: Env): string {
  const value = nonEmpty(env.AWS_REGION)?.trim() ?? DEFAULT_REGION;
  if (!REGION.test(value)) throw new SettingsError("AWS_REGION", "must be a region name such as us-east-1.");
  return value;
}

/** The ConverseStream request; signed when the target has AWS credentials. */
export function buildBedrockRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const http: ProviderHttpRequest = {
    // Model ids have `:` and ARNs `/`: the id is one path segment, encoded (and signed encoded twice).
    url: `${target.baseUrl}/model/${encodeURIComponent(request.model)}/converse-stream`,
    headers: { "content-type": "application/json" },
    body: withOutputConfig(requestBody("bedrock", request), request),
    responseType: "application/vnd.amazon.eventstream",
    // ConverseStream's 200 is always the event stream (its API reference); a 200 of `application/json`
    // is Converse's `ConverseResponse` (a gateway that answered the request whole), which the library
    // reads as the events that stream it. A JSON body that is none is no readable answer: a 502.
    wholeType: "application/json",
  };
  if (target.aws) http.sign = signer(target.aws);
  return http;
}

/** The body with structured output asked for in a client's protocol, as Converse's `outputConfig`. */
function withOutputConfig(body: JsonObject, request: StreamRequest): JsonObject {
  const config = request.outputFormat && bedrockOutputConfig(request.outputFormat);
  if (config) body["outputConfig"] = config;
  return body;
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
