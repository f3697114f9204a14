/**
 * The tool-call-stream edge Worker: `POST /v1/stream` streams a provider's answer as
 * normalized tool-call events over SSE, `POST /v1/run` runs the Worker's tools in a loop, and
 * `POST /v1/chat/completions`, `POST /v1/ui` and `POST /v1/ag-ui` answer in the OpenAI, AI SDK
 * and AG-UI protocols, `POST /v1/messages` and `POST /v1/responses` in Anthropic's and OpenAI's
 * agent protocols (Azure OpenAI's `/openai/...` paths too); `GET /` is a demo page, `GET /healthz`
 * a health check.
 * See worker/README.md and wrangler.toml for settings and secrets.
 *
 * @module
 */
import { createFetchHandler } from "./app.ts";
import type { Env } from "./env.ts";
import { platformRuntime } from "./runtime.ts";

const fetch = createFetchHandler(platformRuntime);

export default { fetch } satisfies ExportedHandler<Env>;

export { ResponseBuffer } from "./resumable/response-buffer.ts";
