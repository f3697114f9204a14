import { type Provider, providerKit, ToolCallStreamError } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { withSampling } from "./sampling.ts";

/**
 * The body of a provider request, made by the library's kit of the provider; what the provider
 * cannot be sent is a 400 that names the field.
 */
export function requestBody(provider: Provider, request: StreamRequest): JsonObject {
  // Clients write JSON Schema as it is: a provider that also takes a subset of it (Gemini's
  // OpenAPI `parameters`) is sent the tools where full JSON Schema goes.
  const tools = request.tools.map((tool) => ({ ...tool, jsonSchema: true }));
  try {
    // Made of the request's JSON values only, so it is JSON.
    const body = providerKit(provider).requestBody({ ...request, tools }) as JsonObject;
    return withSampling(provider, body, request.sampling, request.model);
  } catch (error) {
    if (error instanceof ToolCallStreamError && error.code === "invalid-request")
      throw invalidField(error.info.path ?? "", error.message);
    throw error;
  }
}
