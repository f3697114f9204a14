import { anyProviderKey, type Env, nonEmpty, openAccess, readSettings, type Settings, SettingsError } from "../env.ts";
import { HttpError, logMisconfigured } from "../response/json-error.ts";

/**
 * Bearer-token authentication of clients against the `CLIENT_TOKEN` secret.
 *
 * Without a token configured, the Worker runs open only when told to (`OPEN_ACCESS = "true"`,
 * which `npm start` passes to `wrangler dev`) and no real provider is reachable (no provider key,
 * no `OLLAMA_BASE_URL`: every answer is a replayed recording). Nothing about the request counts:
 * a `Host` header is whatever the client or a proxy in front wrote, so it proves nothing about
 * where the request came from. A bare `wrangler dev`, or a deploy without `CLIENT_TOKEN`, answers
 * every request 401 with the same message a missing token gets, so a stranger learns nothing of
 * the setup; the misconfiguration is logged instead. The refusal reads nothing but `CLIENT_TOKEN`,
 * `OPEN_ACCESS` (a malformed one is closed) and whether a provider key is set, so a malformed
 * setting refuses a stranger as a well-configured Worker does: only a client let in reads the
 * other settings ({@link authenticatedSettings}), and learns that one is malformed.
 *
 * @module
 */

/** What the authentication decision depends on. */
export interface AuthContext {
  /** The configured `CLIENT_TOKEN`, if any. */
  clientToken: string | undefined;
  /** True when the open mode was asked for (`OPEN_ACCESS`) and no real provider is reachable. */
  open: boolean;
}

/**
 * Authenticates `request` ({@link authenticate}: a 401 otherwise), then reads the settings, which
 * throws a `SettingsError` for a malformed one: a 500 for a client let in, never for a stranger.
 *
 * @example
 * ```ts
 * const settings = await authenticatedSettings(request, env);
 * ```
 */
export async function authenticatedSettings(request: Request, env: Env): Promise<Settings> {
  await authenticate(request, authContext(env));
  let settings = readFrom.get(env);
  if (settings === undefined) readFrom.set(env, (settings = readSettings(env)));
  return settings;
}

/**
 * The settings read from each bindings object: workerd hands every request of an isolate the same
 * one, whose variables do not change, so they are read once, not per request (about 2 % of a small
 * answer's isolate time, bench/load/profile.ts). Settings are never changed once read; a malformed
 * variable is not kept, so every request still meets its `SettingsError`.
 */
const readFrom = new WeakMap<Env, Settings>();

/**
 * The {@link AuthContext} of a Worker's bindings: open only when `OPEN_ACCESS` asks for it and no
 * provider key (or Ollama server) is set. A malformed `OPEN_ACCESS` is closed, and logged.
 */
function authContext(env: Env): AuthContext {
  let open = false;
  try {
    open = openAccess(env) && !anyProviderKey(env);
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    logMisconfigured(error);
  }
  return { clientToken: nonEmpty(env.CLIENT_TOKEN), open };
}

/**
 * Whether {@link authenticate} lets `request` in under `env`, without a 401: what a route that
 * answers strangers too (`/healthz`) may tell only a client let in.
 *
 * @example
 * ```ts
 * if (await isLetIn(request, env)) body.setting = fault.setting;
 * ```
 */
export async function isLetIn(request: Request, env: Env): Promise<boolean> {
  try {
    await authenticate(request, authContext(env));
    return true;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return false;
    throw error;
  }
}

/** Resolves when the request may proceed; rejects with 401 `unauthorized` otherwise. */
export async function authenticate(request: Request, context: AuthContext): Promise<void> {
  if (context.clientToken === undefined) {
    if (context.open) return;
    warnNoToken();
    throw unauthorized(request);
  }
  // Anthropic clients send the key as `x-api-key` (Claude Code's ANTHROPIC_API_KEY), OpenAI clients
  // as a bearer token, Azure OpenAI's (openai-node's and openai-python's `AzureOpenAI`, given an
  // `apiKey`) as `api-key`; some @anthropic-ai/sdk 0.x releases sent two where ANTHROPIC_AUTH_TOKEN
  // was set too (a stale token of another gateway beside the right key): any one lets the request in.
  // Each header read only when the ones before it did not let the request in: a client that sends
  // its token in `Authorization` costs one read, no list of the tokens.
  for (const name of KEY_HEADERS) {
    const presented = tokenIn(request, name);
    if (presented === undefined) continue;
    const equal = equalInConstantTime(presented, context.clientToken);
    if (!(typeof equal === "boolean" ? equal : await equal)) continue;
    authenticated.set(request, context.clientToken);
    return;
  }
  throw unauthorized(request);
}

/** The tokens a request presents: its bearer token, then its `x-api-key`, then its `api-key`, each where sent. */
function presentedTokens(request: Request): string[] {
  return KEY_HEADERS.flatMap((name) => tokenIn(request, name) ?? []);
}

/** The headers a client token comes in, in the order they are read. */
const KEY_HEADERS = ["authorization", "x-api-key", "api-key"] as const;

/** The token in header `name`: a bearer token in `Authorization`, the whole (trimmed) value in the others. */
function tokenIn(request: Request, name: (typeof KEY_HEADERS)[number]): string | undefined {
  const value = request.headers.get(name);
  return name === "authorization" ? bearerToken(value) : nonBlank(value);
}

/** The requests {@link authenticate} let in with the configured token, and that token: their owner is its owner. */
const authenticated = new WeakMap<Request, string>();

/**
 * Who owns what a request stores (`/v1/responses` with `store`): a hash of the token the request
 * presented, so a stored response is found only with the token that stored it, and a rotated
 * `CLIENT_TOKEN` leaves the old ones unreadable. In the open mode no token is checked, so the
 * owner is the hash of whatever key the client sends (or of none): two local clients with
 * different keys do not read each other's responses. Call it after {@link authenticate}.
 *
 * @example
 * ```ts
 * const owner = await tokenOwner(request); // "x1Vb0kq7Qd2aY3mT9cW8pA"
 * ```
 */
export async function tokenOwner(request: Request): Promise<string> {
  // A request let in with the configured token presented that token: its owner is made once per
  // isolate (per token: a test may change it). Any other presented key is hashed on every call,
  // never kept: a cache would hold a client's raw token in the isolate (in the open mode, whatever
  // key a client sent, a provider's real key included) and compare it with the next one in
  // variable time.
  const configured = authenticated.get(request);
  if (configured === undefined) return ownerOf(presentedTokens(request)[0] ?? "");
  if (configuredOwner?.token === configured) return configuredOwner.owner;
  const owner = await ownerOf(configured);
  configuredOwner = { token: configured, owner };
  return owner;
}

/** The owner of the configured token, made once: a value, never a promise (workerd cancels a request's wait on a promise another request made). */
let configuredOwner: { token: string; owner: string } | undefined;

/** The owner of `presented`: the first 16 bytes of its hash, base64. */
async function ownerOf(presented: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`owner:${presented}`));
  let binary = "";
  for (const byte of new Uint8Array(digest).subarray(0, 16)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

let warned = false;

/** Once per isolate: the operator reads it in `wrangler tail` or the dev console, a client never does. */
function warnNoToken(): void {
  if (warned) return;
  warned = true;
  console.warn(
    "tool-call-stream: no CLIENT_TOKEN secret is set, so every request is refused (401). Set one: `npx wrangler secret put CLIENT_TOKEN` for a deployed Worker, a CLIENT_TOKEN=<any secret> line in .dev.vars for `npm start`, whose open replay mode (no token) holds only while no provider key and no OLLAMA_BASE_URL is set.",
  );
}

function nonBlank(header: string | null): string | undefined {
  const value = header?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return match?.[1];
}

/**
 * Compares the presented token with the configured one without leaking where they differ or how
 * long the configured one is: both are read as {@link COMPARED} UTF-16 units (zeros past their
 * end) and every unit is compared, whatever differs, with their lengths folded in, so the work is
 * the same for every token of at most {@link COMPARED} units. No branch and no memory read depends
 * on the configured token; the only branch is on the presented one's length, which its sender
 * knows. Nothing is allocated or hashed per request (a SHA-256 of the presented token was 3.5 % of
 * a small answer's isolate time, bench/load/profile.ts). A longer token is compared by hash
 * ({@link equalByHash}), which a timing observer can tell apart: only that the configured token is
 * longer than {@link COMPARED} units.
 */
function equalInConstantTime(presented: string, configured: string): boolean | Promise<boolean> {
  if (presented.length > COMPARED || configured.length > COMPARED) return equalByHash(presented, configured);
  if (padded?.token !== configured) padded = { token: configured, units: paddedUnits(configured) };
  const { units } = padded;
  let differ = presented.length ^ configured.length;
  for (let i = 0; i < COMPARED; i++) differ |= (i < presented.length ? presented.charCodeAt(i) : 0) ^ units[i]!;
  return differ === 0;
}

/** UTF-16 units of a token compared unit by unit ({@link equalInConstantTime}); a longer token's hash is compared. */
const COMPARED = 256;

/** The configured token's units, zero-padded to {@link COMPARED}: made once per isolate (per token: a test may change it). */
let padded: { token: string; units: Uint16Array } | undefined;

function paddedUnits(token: string): Uint16Array {
  const units = new Uint16Array(COMPARED);
  for (let i = 0; i < token.length; i++) units[i] = token.charCodeAt(i);
  return units;
}

/** Two secrets compared by their SHA-256 with the platform's `timingSafeEqual`: 32 bytes, whatever their lengths. */
async function equalByHash(a: string, b: string): Promise<boolean> {
  const [hashA, hashB] = await Promise.all([sha256(a), tokenHash(b)]);
  return crypto.subtle.timingSafeEqual(hashA, hashB);
}

const sha256 = (text: string): Promise<ArrayBuffer> => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));

/** The client token's hash, made once per isolate (per token: a test may change it), not per request. */
let known: { token: string; hash: ArrayBuffer } | undefined;

/** The hash, kept once made (a value, never a promise: see {@link tokenOwner}). */
async function tokenHash(token: string): Promise<ArrayBuffer> {
  if (known?.token === token) return known.hash;
  const hash = await sha256(token);
  known = { token, hash };
  return hash;
}

/** The headers of {@link KEY_HEADERS} as a 401 names them. */
const NAMED = { authorization: "Authorization", "x-api-key": "x-api-key", "api-key": "api-key" } as const;

/**
 * The 401 of a refusal: what the request sent (no token, an `Authorization` that is no bearer
 * token, a token that is not the client token: the header it came in) and what to send, never the
 * token itself. It depends on the request alone, so a Worker without `CLIENT_TOKEN` answers as
 * one with another.
 */
function unauthorized(request: Request): HttpError {
  const how = "Send the client token as `Authorization: Bearer <token>`, `x-api-key: <token>` or `api-key: <token>`.";
  const sent = KEY_HEADERS.filter((name) => tokenIn(request, name) !== undefined).map((name) => `\`${NAMED[name]}\``);
  const [first, second, third] = sent;
  const message = third
    ? `None of the client tokens sent, in ${first}, ${second} and ${third}, is this Worker's \`CLIENT_TOKEN\`.`
    : second
      ? `Neither client token sent, in ${first} nor in ${second}, is this Worker's \`CLIENT_TOKEN\`.`
      : first
        ? `The client token sent in ${first} is not this Worker's \`CLIENT_TOKEN\`.`
        : nonBlank(request.headers.get("authorization")) !== undefined
          ? `The \`Authorization\` header is not \`Bearer <token>\`. ${how}`
          : `No client token was sent. ${how}`;
  return new HttpError(
    401,
    { code: "unauthorized", message },
    { "www-authenticate": 'Bearer realm="tool-call-stream"' },
  );
}
