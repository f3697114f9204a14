import type { Env, Settings } from "../env.ts";
import type { Runtime } from "../runtime.ts";

/**
 * What a service of the Worker runs with: the bindings, the settings read from them, and the
 * injected network and clock. A route has it from {@link RequestContext}; the Durable Object
 * builds its own (its bindings, and in tests the runtime they inject).
 */
export interface WorkerContext {
  /** The bindings (wrangler.toml vars and secrets, the Durable Object namespace). */
  readonly env: Env;
  /** The settings, read and checked from `env`. */
  readonly settings: Settings;
  /** The network and the clock (tests pass fakes). */
  readonly runtime: Runtime;
}

/**
 * One request as every route handles it, once `guardedPost` has checked it: the request, the
 * {@link WorkerContext}, and the CORS headers its answer carries.
 */
export interface RequestContext extends WorkerContext {
  /** The client's request (its signal aborts when the client goes away). */
  readonly request: Request;
  /** The CORS headers of the answer (none for a same-origin or server client). */
  readonly cors: Record<string, string>;
}
