/**
 * The request shape of `POST /v1/run`: the body of `POST /v1/stream` (see stream-request.ts),
 * except that `tools` names the Worker's own tools instead of defining them, plus an optional
 * `max_steps`:
 *
 * ```jsonc
 * {
 *   "provider": "openai",
 *   "model": "gpt-4o-mini",
 *   "messages": [{ "role": "user", "content": "What time is it in Tokyo, and what is 17% of 230?" }],
 *   "tools": ["current_time", "calculate"],   // server-side tools to enable (see worker/demo-tools/)
 *   "tool_choice": "auto",                    // optional, as for /v1/stream
 *   "max_steps": 4                            // optional: most model calls, 1 to 8 (default 8)
 * }
 * ```
 *
 * @module
 */
import type { RunnableTool } from "../../src/index.ts";
import { HttpError, invalidField } from "../response/json-error.ts";
import { parseStreamRequest, type RequestBounds, STREAM_BOUNDS } from "./parse-stream-request.ts";
import type { JsonObject, StreamRequest } from "./stream-request.ts";

/** Most model calls one run may make: a request cannot keep the Worker (or the bill) going. */
export const MAX_RUN_STEPS = 8;

/** A validated `POST /v1/run` request. */
export interface RunRequest extends StreamRequest {
  /** The enabled tools, by name, in the order the request listed them. */
  enabled: Readonly<Record<string, RunnableTool>>;
  /** Most model calls. */
  maxSteps: number;
}

/**
 * Validates a parsed `POST /v1/run` body. `tools` must be an array of the names in `available`
 * (each at most once); their definitions (description, JSON Schema) are what the provider
 * request lists. Everything else is checked as `parseStreamRequest` checks it, with the same
 * 400 errors; messages never repeat the client's values. `bounds` are those of `/v1/stream` unless
 * a client protocol's run mode brings its own (its tool names in earlier turns).
 */
export function parseRunRequest(
  body: unknown,
  providers: readonly string[],
  available: Readonly<Record<string, RunnableTool>>,
  bounds: RequestBounds = STREAM_BOUNDS,
): RunRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw invalidField("", "The request body must be a JSON object.");
  const { tools, max_steps: maxSteps, ...rest } = body as Record<string, unknown>;
  const enabled = parseToolNames(tools, available);
  const definitions = Object.entries(enabled).map(([name, tool]) => ({
    name,
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    parameters: (tool.parameters ?? { type: "object", properties: {} }) as JsonObject,
  }));
  const request = parseStreamRequest({ ...rest, tools: definitions }, providers, bounds);
  return { ...request, enabled, maxSteps: maxSteps === undefined ? MAX_RUN_STEPS : parseMaxSteps(maxSteps) };
}

function parseToolNames(
  value: unknown,
  available: Readonly<Record<string, RunnableTool>>,
): Record<string, RunnableTool> {
  const known = Object.keys(available).join(", ");
  if (value === undefined) return {};
  if (!Array.isArray(value)) throw invalidField("tools", `\`tools\` must be an array of tool names: ${known}.`);
  const enabled: Record<string, RunnableTool> = {};
  value.forEach((name, i) => {
    if (typeof name !== "string") {
      throw invalidField(
        `tools[${i}]`,
        `Each tool is a name (this endpoint runs its own tools; define tools with POST /v1/stream): ${known}.`,
      );
    }
    if (!Object.hasOwn(available, name)) {
      throw new HttpError(400, {
        code: "invalid_request",
        message: `\`tools\` names a tool this Worker does not have; it has: ${known}.`,
        field: `tools[${i}]`,
      });
    }
    if (Object.hasOwn(enabled, name)) throw invalidField(`tools[${i}]`, "A tool is named twice.");
    enabled[name] = available[name]!;
  });
  return enabled;
}

function parseMaxSteps(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 1 || (value as number) > MAX_RUN_STEPS) {
    throw invalidField("max_steps", `\`max_steps\` must be an integer from 1 to ${MAX_RUN_STEPS}.`);
  }
  return value as number;
}
