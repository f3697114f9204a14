import type { Provider } from "../../src/index.ts";
import type { Env, ProviderKeyVar } from "../env.ts";
import type { Recording } from "../replay/recording.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";

/** Where and with what key a provider is called. */
export interface ProviderTarget {
  /** The base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The API key; empty when the replay upstream answers. */
  apiKey: string;
}

/** A provider request, before it becomes a `Request`. */
export interface ProviderHttpRequest {
  url: string;
  headers: Record<string, string>;
  body: JsonObject;
}

/**
 * One provider the Worker can call, `P` being the library's name of its wire protocol. Adding
 * a provider that the library reads is one object of this shape in worker/providers/ and one
 * line in worker/providers/index.ts.
 */
export interface UpstreamProvider<P extends string = Provider> {
  /** The library's name of the wire protocol of the response (`streamToolCalls`' `provider`). */
  protocol: P;
  /** The secret holding the key. */
  keyVar: ProviderKeyVar;
  /** The variable that overrides the base URL. */
  baseUrlVar: keyof Env & `${string}_BASE_URL`;
  /** The provider's own base URL. */
  defaultBaseUrl: string;
  /** Builds the streaming request; throws a 400 `HttpError` for what this provider cannot express. */
  buildRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest;
  /** What the replay upstream answers with when no key is set; the first is the default. */
  recordings: readonly Recording[];
}
