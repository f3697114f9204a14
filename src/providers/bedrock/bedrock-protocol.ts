import { objectJsonText } from "../../shared/object-json-text.ts";
import { AwsEventStreamDecoder } from "../../framing/aws-event-stream-decoder-stream.ts";
import type { ProviderProtocol } from "../provider-decoder.ts";
import { BedrockDecoder } from "./bedrock-delta-stream.ts";
import { bedrockMessageOf } from "./bedrock-objects.ts";

/**
 * The protocol of Amazon Bedrock ConverseStream and InvokeModelWithResponseStream: its bodies are
 * always the AWS event stream, and its decoder is {@link BedrockDecoder}. `streamToolCalls` takes
 * it as its `provider` like the name, and the registry maps the name to it.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: bedrockProtocol })) console.log(event.type);
 * ```
 */
export const bedrockProtocol: ProviderProtocol = {
  name: "bedrock",
  framing: AwsEventStreamDecoder,
  createDecoder: (emit) => new BedrockDecoder(emit),
  jsonText: objectJsonText,
  messageOf: bedrockMessageOf,
};
