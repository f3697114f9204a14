import type { Provider } from "../../../src/index.ts";
import type { Env, ProviderKeyVar } from "../../env.ts";
import type { Recording } from "../replay/recording.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import type { AwsCredentials } from "./aws-sigv4.ts";
import type { GeminiInteractionsResumePoint as ResumePoint } from "../../../src/gemini-interactions.ts";

/** Where and with what key a provider is called. */
export interface ProviderTarget {
  /** The base URL without a trailing slash, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  /** The API key; empty when the replay upstream answers or the provider takes none. */
  apiKey: string;
  /** Bedrock: what requests are signed with; absent when the replay upstream answers. */
  aws?: AwsSigning;
}

/** The credentials and region of AWS Signature Version 4, and the clock it reads. */
export interface AwsSigning {
  credentials: AwsCredentials;
  region: string;
  /** The signing time, in milliseconds since the epoch (tests pass a fixed one). */
  now: () => number;
}

/** A provider request, before it becomes a `Request`. */
export interface ProviderHttpRequest {
  url: string;
  /** `GET` sends no body (a resumed stream); absent: `POST` with `body`. */
  method?: "GET";
  /**
   * The request that resumes this one's stream after a dropped connection, from the last event
   * the Worker read (Gemini Interactions: `GET /interactions/{id}?stream=true&last_event_id=`);
   * absent: a drop ends the stream.
   */
  resume?: (point: ResumePoint) => ProviderHttpRequest;
  headers: Record<string, string>;
  body: JsonObject;
  /**
   * The media type of the streamed answer; a `200` of another type is refused.
   * @defaultValue "text/event-stream"
   */
  responseType?: string;
  /**
   * The media type of a whole (non-streamed) answer, which a server that ignored `stream: true`
   * sends: the library's main entry reads it as the stream it stands for, so a `200` of this type
   * is read too (Anthropic's, OpenAI Responses' and Cohere's `application/json`). Absent: refused.
   */
  wholeType?: string;
  /**
   * Computes the headers that authenticate this exact request (AWS Signature Version 4 covers the
   * body): called for every request sent, with the body as it is sent.
   */
  sign?: (url: string, headers: Readonly<Record<string, string>>, body: string) => Promise<Record<string, string>>;
}

/**
 * The tool (function) names a provider takes, as its API reference documents them. Every model
 * call sends a name that breaks the rule under a shortened one (worker/upstream/tool-names.ts).
 *
 * @example
 * ```ts
 * const openai: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };
 * ```
 */
export interface ToolNameRule {
  /** The longest name, in characters. */
  maxLength: number;
  /** One character a name may hold. */
  char: RegExp;
  /** One character a name may begin with. */
  first: RegExp;
}

/** What a provider is called with when it is configured: its key, or its AWS signing. */
export type ProviderCredentials = Omit<ProviderTarget, "baseUrl">;

/**
 * One provider the Worker can call, `P` being the library's name of its wire protocol. Adding
 * a provider that the library reads is one object of this shape in worker/upstream/providers/ and one
 * line in worker/upstream/providers/index.ts.
 */
export interface UpstreamProvider<P extends string = Provider> {
  /** The library's name of the wire protocol of the response (`streamToolCalls`' `provider`). */
  protocol: P;
  /** The secret holding the key. */
  keyVar: ProviderKeyVar;
  /** The variable that overrides the base URL. */
  baseUrlVar: keyof Env & `${string}_BASE_URL`;
  /**
   * The 502's words when the provider refused the Worker's credentials (401, 403), from the
   * exception type it named (AWS: `x-amzn-errortype`, a body's `__type`). Absent: the key secret's.
   */
  authRefusal?: (errorType: string | undefined) => string;
  /** The provider's own base URL (Bedrock's depends on `AWS_REGION`). */
  defaultBaseUrl: string | ((env: Env) => string);
  /**
   * The credentials when the provider is configured, undefined when the replay upstream is to
   * answer; throws a `SettingsError` for credentials it cannot use. Absent: configured when
   * `keyVar` is set, with that key.
   */
  credentials?: (env: Env) => ProviderCredentials | undefined;
  /** Builds the streaming request; throws a 400 `HttpError` for what this provider cannot express. */
  buildRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest;
  /** The tool names it takes; every model call shortens a longer or other name to fit it. */
  toolNames: ToolNameRule;
  /** What the replay upstream answers with when no key is set; the first is the default. */
  recordings: readonly Recording[];
}
