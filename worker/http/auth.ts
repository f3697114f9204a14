import { HttpError } from "../response/json-error.ts";

/**
 * Bearer-token authentication of clients against the `CLIENT_TOKEN` secret.
 *
 * Without a token configured, the Worker runs open only when it cannot reach a real provider
 * (no provider key is set, so every answer is a replayed recording) and the request is
 * addressed to localhost: `wrangler dev` on a fresh clone works at once, and a deployed Worker
 * (which is never reached under a localhost name) or one holding a key always demands a token.
 *
 * @module
 */

/** What the authentication decision depends on. */
export interface AuthContext {
  /** The configured `CLIENT_TOKEN`, if any. */
  clientToken: string | undefined;
  /** True when no provider key is set: only the replay upstream is reachable. */
  replayOnly: boolean;
}

const LOCAL_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Resolves when the request may proceed; rejects with 401 `unauthorized` otherwise. */
export async function authenticate(request: Request, context: AuthContext): Promise<void> {
  if (context.clientToken === undefined) {
    if (context.replayOnly && LOCAL_HOSTNAMES.has(new URL(request.url).hostname)) return;
    throw unauthorized("No CLIENT_TOKEN secret is configured; set one to accept requests.");
  }
  const presented = bearerToken(request.headers.get("authorization"));
  if (presented === undefined || !(await equalInConstantTime(presented, context.clientToken))) {
    throw unauthorized("Send the client token as `Authorization: Bearer <token>`.");
  }
}

function bearerToken(header: string | null): string | undefined {
  const match = header?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i);
  return match?.[1];
}

/**
 * Compares two secrets without leaking where they differ or how long they are: both are
 * hashed first, so the comparison always runs over 32 bytes, then compared with the
 * platform's `timingSafeEqual`.
 */
async function equalInConstantTime(a: string, b: string): Promise<boolean> {
  const encoder = new TextEncoder();
  const [hashA, hashB] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(hashA, hashB);
}

function unauthorized(message: string): HttpError {
  return new HttpError(
    401,
    { code: "unauthorized", message },
    { "www-authenticate": 'Bearer realm="tool-call-stream"' },
  );
}
