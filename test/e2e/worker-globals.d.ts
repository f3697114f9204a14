// worker/env.ts, whose PROVIDER_KEY_VARS worker-server.ts reads, names the type of the Durable
// Object binding, a global of @cloudflare/workers-types; its globals clash with Node's and the
// DOM's that these files run with, and no e2e file touches the binding: an opaque stand-in.
interface DurableObjectNamespace {
  readonly __durableObjectNamespace: never;
}
