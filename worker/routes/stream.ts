import { streamToolCalls, ToolCallEventEncoderStream } from "../../src/index.ts";
import { anyProviderKey, nonEmpty, readSettings, SettingsError, type Env, type Settings } from "../env.ts";
import { authenticate } from "../http/auth.ts";
import { corsHeaders, preflightResponse } from "../http/cors.ts";
import { HttpError } from "../http/json-error.ts";
import { readJsonBody } from "../http/read-json-body.ts";
import { providerNames, upstreamProvider } from "../providers/index.ts";
import type { UpstreamProvider } from "../providers/upstream-provider.ts";
import { pickRecording } from "../replay/recording.ts";
import { replayUpstream } from "../replay/replay-upstream.ts";
import { parseStreamRequest } from "../request/parse-stream-request.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import type { Runtime } from "../runtime.ts";
import { openUpstream } from "../upstream/open-upstream.ts";

/**
 * `POST /v1/stream`: validates the request, calls the provider (or the replay upstream when
 * the provider has no key), and answers `text/event-stream` with one SSE event per
 * accumulated event (`event: <type>`, `id: <sequence>`, `data: <json>`).
 *
 * Checks run cheapest and most protective first: origin, method, client token, then the body;
 * nothing reaches a provider before all of them pass. Errors before the stream are JSON
 * ({@link HttpError}); after it started they are `error` events followed by `abort`.
 */
export async function streamRoute(request: Request, env: Env, runtime: Runtime): Promise<Response> {
  const settings = readSettings(env);
  const cors = corsHeaders(request, settings.corsAllowOrigins);
  try {
    if (request.method === "OPTIONS") return preflightResponse(request, settings.corsAllowOrigins);
    if (request.method !== "POST") {
      throw new HttpError(405, { code: "method_not_allowed", message: "Use POST." }, { allow: "POST, OPTIONS" });
    }
    await authenticate(request, { clientToken: settings.clientToken, replayOnly: !anyProviderKey(env) });
    const streamRequest = parseStreamRequest(await readJsonBody(request, settings.maxBodyBytes), providerNames);
    return await startStream(request, streamRequest, env, settings, runtime, cors);
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(error.status, error.body, { ...error.headers, ...cors });
    throw error;
  }
}

async function startStream(
  request: Request,
  streamRequest: StreamRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  cors: Record<string, string>,
): Promise<Response> {
  const provider = upstreamProvider(streamRequest.provider);
  const apiKey = nonEmpty(env[provider.keyVar]);
  const http = provider.buildRequest(streamRequest, { baseUrl: baseUrl(provider, env), apiKey: apiKey ?? "" });
  const recording = apiKey === undefined ? pickRecording(provider.recordings, lastUserText(streamRequest)) : undefined;
  const send = recording ? replayUpstream(recording, { delayMs: settings.replayDelayMs, timers: runtime.timers }) : runtime.fetch;
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const body = await openUpstream(http, { send, timers: runtime.timers, idleTimeoutMs: settings.idleTimeoutMs, controller });
  const events = streamToolCalls(body, {
    provider: provider.protocol,
    maxToolCalls: settings.maxToolCalls,
    maxArgumentsBytes: settings.maxArgumentsBytes,
    maxEventBytes: settings.maxEventBytes,
  });
  const headers: Record<string, string> = {
    ...cors,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
  };
  if (recording) headers["x-replay-recording"] = recording.name;
  return new Response(events.pipeThrough(new ToolCallEventEncoderStream()), { headers });
}

function baseUrl(provider: UpstreamProvider, env: Env): string {
  const raw = nonEmpty(env[provider.baseUrlVar]) ?? provider.defaultBaseUrl;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SettingsError(`${provider.baseUrlVar} must be an absolute http(s) URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new SettingsError(`${provider.baseUrlVar} must be an absolute http(s) URL.`);
  return url.href.replace(/\/+$/, "");
}

function lastUserText(request: StreamRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  return users.at(-1)?.content ?? "";
}
