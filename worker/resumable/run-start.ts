import type { RunnableTool } from "../../src/index.ts";
import type { RunRequest } from "../request/parse-run-request.ts";
import { HttpError } from "../response/json-error.ts";

/**
 * What a route hands the Durable Object to start a resumable run (`ResponseBuffer.startRun`): the
 * run its route validated, with its tools by name (the object runs its own, each call recorded,
 * so a retry never runs a call twice), and the request body as the client sent it, which a retry
 * must repeat.
 */
export interface RunStart {
  /** The validated run, without its tools (functions do not cross to the object). */
  request: Omit<RunRequest, "enabled">;
  /** The enabled tools, by name, in the order the request listed them. */
  tools: readonly string[];
  /** The request body (JSON text), kept with the run to tell a retry of the same run from another. */
  body: string;
}

/**
 * The {@link RunStart} of a validated run and its body's JSON text.
 *
 * @example
 * ```ts
 * await stub.startRun(id, runStart(parseRunRequest(body, providerNames, tools), JSON.stringify(body)), false);
 * ```
 */
export function runStart(run: RunRequest, body: string): RunStart {
  const { enabled, ...request } = run;
  return { request, tools: Object.keys(enabled), body };
}

/**
 * The run to start: `run`'s request with its tools taken from `tools` (the object's own, each call
 * recorded) by name. The route checked the names against the same set.
 *
 * @example
 * ```ts
 * const request = runRequestOf(run, recordedTools(demoTools(), store));
 * ```
 */
export function runRequestOf(run: RunStart, tools: Readonly<Record<string, RunnableTool>>): RunRequest {
  const enabled: Record<string, RunnableTool> = {};
  for (const name of run.tools) {
    const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
    if (!tool)
      throw new HttpError(400, { code: "invalid_request", message: "`tools` names a tool this Worker does not have." });
    enabled[name] = tool;
  }
  return { ...run.request, enabled };
}
