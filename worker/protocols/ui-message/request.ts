/**
 * The request of `POST /v1/ui`: what the AI SDK's `DefaultChatTransport` (`useChat`) sends, plus
 * the fields its `body` option adds:
 *
 * ```jsonc
 * {
 *   "id": "chat_1", "trigger": "submit-message", "messageId": null,   // sent by the transport
 *   "messages": [                                                      // UI messages with parts
 *     { "id": "u1", "role": "user", "parts": [{ "type": "text", "text": "Weather in Paris?" }] },
 *     { "id": "a1", "role": "assistant", "parts": [
 *       { "type": "step-start" },
 *       { "type": "tool-get_weather", "toolCallId": "call_1", "state": "output-available", "input": { "city": "Paris" }, "output": { "celsius": 18 } },
 *       { "type": "step-start" },
 *       { "type": "text", "text": "18 °C." } ] }
 *   ],
 *   "model": "gemini/gemini-2.5-flash",   // <provider>/<model>, or a name alone (OpenAI's, offline or with its key)
 *   "tools": [{ "name": "get_weather", "parameters": { ... } }],   // definitions; with run: the Worker's tool names
 *   "run": false,                         // true: run the Worker's tools at the edge and loop, as /v1/run
 *   "max_steps": 4,                       // run mode only
 *   "tool_choice": "auto", "max_tokens": 1024, "temperature": 0.2,
 *   "top_p": 0.9, "top_k": 40, "stop": ["END"], "seed": 7, "frequency_penalty": 0, "presence_penalty": 0
 * }
 * ```
 *
 * Earlier turns become the provider's messages: text parts are the text, each step of an
 * assistant message (`step-start` separates them) its text and the calls that have an outcome
 * (`output-available`, `output-error`, `output-denied`, or `approval-responded` denied), each followed by its result, and the
 * reasoning state the Worker put on its reasoning parts (`providerMetadata.toolCallStream`) and their
 * text (the step's reasoning text: Ollama's `thinking`; Cohere's `tool_plan`, less the sealed thinking). A
 * `steering-message` part (ai 7: a user message the run took between steps) is a user message there, its
 * text and files as a user message's. A call the user approved whose tool has not run is the
 * route's (./approved.ts): with its result once run, never without one. Calls still waiting for an
 * output, calls the provider ran itself and data parts are not sent.
 *
 * @module
 */
import type { JsonValue, ReasoningPart, RunnableTool } from "../../../src/index.ts";
import { HttpError, invalidField } from "../../response/json-error.ts";
import {
  ANY_NAME_BOUNDS,
  arrayAt,
  idAt,
  clientRequest,
  objectAt,
  resultText,
  runFlag,
  samplingOf,
  stringAt,
  type WireMessage,
} from "../client-request.ts";
import type { ClientRequest } from "../../services/client-events.ts";
import { isObject, own, tooDeep, tooDeepError } from "../../request/json-fields.ts";
import type { WirePart } from "../../request/file-parts.ts";
import { fileOfUrl } from "../client-files.ts";
import { providerModel } from "../provider-model.ts";
import { SAMPLING_FIELDS } from "../../request/parse-sampling.ts";
import { callIdOf, echoedCall } from "../thought-signatures.ts";
import { uiReasoningPart, withReasoningText } from "../reasoning-state.ts";

/** A validated `POST /v1/ui` request. */
export type UIRequest = ClientRequest & {
  /** The assistant message the answer continues (the last message, when it is the assistant's); otherwise the client names the new one. */
  messageId?: string;
  /** The last message's calls the user approved whose tool has not run (./approved.ts), left out of `request`. */
  approved?: ApprovedCall[];
};

/** A call the user approved (`approval-responded`, `approved: true`) that has no output yet. */
export type ApprovedCall = { id: string; name: string; input: JsonValue; path: string; dynamic: boolean };

/** A run approved call's result, as the model reads it, by the call's id (./approved.ts). */
export type RanCalls = ReadonlyMap<string, string>;

const FIELDS = new Set([
  "id",
  "messages",
  "trigger",
  "messageId",
  "model",
  "tools",
  "tool_choice",
  "run",
  "max_steps",
  "max_tokens",
  "temperature",
  ...SAMPLING_FIELDS,
]);
/** Tool part states that carry an outcome the model must see with its call. */
const OUTCOMES = new Set(["output-available", "output-error", "output-denied"]);

/** Validates a parsed `POST /v1/ui` body; throws a 400 {@link HttpError} naming the field at fault. */
export function parseUIRequest(
  body: unknown,
  providers: readonly string[],
  available: Readonly<Record<string, RunnableTool>>,
  bare?: string,
  ran: RanCalls = new Map(),
): UIRequest {
  const fields = objectAt(body, "", "a JSON object");
  const deep = tooDeep(fields);
  if (deep !== undefined) throw tooDeepError(deep);
  for (const key of Object.keys(fields)) {
    if (!FIELDS.has(key))
      throw new HttpError(400, {
        code: "unknown_field",
        message: "The request has a field this API does not know.",
        field: /^[A-Za-z0-9_.-]{1,64}$/.test(key) ? key : "(unprintable)",
      });
  }
  const { provider, model } = providerModel(own(fields, "model"), providers, "model", bare);
  const run = runFlag(own(fields, "run"), "run");
  if (!run && own(fields, "max_steps") !== undefined)
    throw invalidField("max_steps", "`max_steps` applies to run mode only (`run: true`).");
  const list = arrayAt(own(fields, "messages"), "messages");
  const approved: ApprovedCall[] = [];
  const messages = list.flatMap((message, i) =>
    toWire(message, `messages[${i}]`, provider, { ran, approved, last: i === list.length - 1 }),
  );
  const parsed = clientRequest(
    {
      provider,
      model,
      messages,
      tools: run ? undefined : own(fields, "tools"),
      tool_choice: own(fields, "tool_choice"),
      max_tokens: own(fields, "max_tokens"),
      temperature: own(fields, "temperature"),
      sampling: samplingOf(fields, SAMPLING_FIELDS),
    },
    run ? { tools: own(fields, "tools"), max_steps: own(fields, "max_steps") } : undefined,
    providers,
    available,
    (field) => (field === "provider" ? "model" : field),
    ANY_NAME_BOUNDS,
  );
  const last = list.at(-1) as Record<string, unknown> | undefined;
  const id = last === undefined ? undefined : own(last, "id");
  const pending = approved.length > 0 ? { approved } : {};
  return last !== undefined && own(last, "role") === "assistant" && typeof id === "string" && id !== ""
    ? { ...parsed, messageId: id, ...pending }
    : { ...parsed, ...pending };
}

/** How a message's approved calls go: their results if they ran, else into `approved` (the last message's alone). */
type Approvals = { ran: RanCalls; approved: ApprovedCall[]; last: boolean };

function toWire(
  value: unknown,
  path: string,
  provider: string,
  approvals: Approvals = { ran: new Map(), approved: [], last: false },
): WireMessage[] {
  const message = objectAt(value, path);
  const role = own(message, "role");
  // Every part names its type, in any role: one that is no string is the client's fault, not a
  // part to skip (a type that is a string the Worker does not know is skipped, as ai skips it).
  const parts = arrayAt(own(message, "parts"), `${path}.parts`).map((part, j) => {
    const fields = objectAt(part, `${path}.parts[${j}]`);
    stringAt(own(fields, "type"), `${path}.parts[${j}].type`);
    return fields;
  });
  // A user message's `file` parts (an image, a PDF: `mediaType` and a URL or data URL) go to the provider.
  if (role === "user" && parts.some((part) => own(part, "type") === "file"))
    return [{ role, content: userParts(parts, path, provider) }];
  if (role === "system" || role === "user") {
    parts.forEach((part, j) => {
      if (own(part, "type") === "file")
        throw invalidField(`${path}.parts[${j}].type`, "Only text parts are supported in a system message.");
    });
    return [{ role, content: texts(parts, path) }];
  }
  if (role !== "assistant") throw invalidField(`${path}.role`, "`role` must be system, user or assistant.");
  const out: WireMessage[] = [];
  type Step = { text: string[]; calls: (WireMessage & { role: "assistant" })["tool_calls"]; results: WireMessage[] };
  type Reasoning = { reasoning: ReasoningPart[]; thought: string };
  let step: Step & Reasoning = { text: [], calls: [], results: [], reasoning: [], thought: "" };
  const flush = (): void => {
    const reasoning = {
      ...(step.reasoning.length > 0 ? { reasoning_parts: step.reasoning } : {}),
      ...(step.thought !== "" ? { reasoning: step.thought } : {}),
    };
    if (step.text.length > 0 || step.calls.length > 0)
      out.push(
        { role: "assistant", content: step.text.join(""), tool_calls: step.calls, ...reasoning },
        ...step.results,
      );
    step = { text: [], calls: [], results: [], reasoning: [], thought: "" };
  };
  parts.forEach((part, j) => {
    const at = `${path}.parts[${j}]`;
    const type = stringAt(own(part, "type"), `${at}.type`);
    if (type === "step-start") flush();
    else if (type === "steering-message") {
      // A user message the run took between steps (ai 7's `SteeringMessageUIPart`): the user's turn
      // there, as ai's `convertToModelMessages` places it, after the step before it.
      flush();
      out.push(...toWire({ role: "user", parts: own(part, "parts") }, at, provider, approvals));
    } else if (type === "text") step.text.push(stringAt(own(part, "text"), `${at}.text`));
    else if (type === "reasoning") {
      // The Worker's seal of the block's state (../reasoning-state.ts), which `useChat` sends back.
      const state = uiReasoningPart(own(part, "providerMetadata"), { path: `${at}.providerMetadata`, provider });
      if (state) step.reasoning.push(state);
      // Its text is the step's reasoning text, which Ollama takes back as `thinking`.
      const text = own(part, "text");
      if (typeof text === "string") step.thought = withReasoningText(step.thought, text) ?? "";
    } else if (type === "dynamic-tool" || type.startsWith("tool-")) {
      const exchange = toolExchange(
        part,
        type === "dynamic-tool" ? stringAt(own(part, "toolName"), `${at}.toolName`) : type.slice("tool-".length),
        at,
        provider,
        approvals,
      );
      if (exchange) {
        step.calls.push(exchange.call);
        step.results.push(exchange.result);
      }
    }
  });
  flush();
  return out;
}

/** A tool part with an outcome: the call, and its result as the model reads it. */
function toolExchange(
  part: Record<string, unknown>,
  name: string,
  path: string,
  provider: string,
  approvals: Approvals,
): { call: (WireMessage & { role: "assistant" })["tool_calls"][number]; result: WireMessage } | undefined {
  if (!ANY_NAME_BOUNDS.toolName.test(name))
    throw invalidField(`${path}.type`, `A tool part must name a tool: ${ANY_NAME_BOUNDS.toolNameRule}.`);
  const id = idAt(own(part, "toolCallId"), `${path}.toolCallId`);
  const state = stringAt(own(part, "state"), `${path}.state`);
  const approval = own(part, "approval");
  // A call the user denied before it ran (`approval-responded`, `approved: false`) is answered as
  // denied, as ai 7's convertToModelMessages and ai 6's streamText answer it.
  const responded = state === "approval-responded" && isObject(approval) ? own(approval, "approved") : undefined;
  const refused = responded === false;
  // Approved, not run yet: ai's streamText runs it before the model (./approved.ts); never dropped.
  const approved = responded === true && own(part, "providerExecuted") !== true;
  const input = own(part, "input") !== undefined ? own(part, "input") : (own(part, "rawInput") ?? {});
  if (approved && !approvals.ran.has(id)) {
    if (!approvals.last)
      throw invalidField(
        path,
        "An approved call whose tool has not run must be in the last message (the user wrote since: send its output or its denial).",
      );
    const dynamic = own(part, "type") === "dynamic-tool";
    approvals.approved.push({ id, name, input: input as JsonValue, path, dynamic });
    return undefined;
  }
  if ((!OUTCOMES.has(state) && !refused && !approved) || own(part, "providerExecuted") === true) return undefined;
  let content: string;
  if (approved) content = approvals.ran.get(id) ?? "";
  else if (state === "output-available") content = resultText(own(part, "output"));
  else if (state === "output-error") content = stringAt(own(part, "errorText"), `${path}.errorText`);
  else {
    const reason = isObject(approval) ? own(approval, "reason") : undefined;
    content = `The user denied this call${typeof reason === "string" && reason !== "" ? `: ${reason}` : "."}`;
  }
  // A call whose input could not be parsed keeps the text the model wrote (`rawInput`): `input` above.
  // A Gemini call's id carries its signature: the provider gets its own id, the signature on the call.
  const call = { name, arguments: input as JsonValue, ...echoedCall(id, provider, `${path}.toolCallId`) };
  return { call, result: { role: "tool", tool_call_id: callIdOf(id, provider), content } };
}

function texts(parts: readonly Record<string, unknown>[], path: string): string {
  return parts
    .flatMap((part, j) =>
      own(part, "type") === "text" ? [stringAt(own(part, "text"), `${path}.parts[${j}].text`)] : [],
    )
    .join("");
}

/** A user message's text and `file` parts in order (its other parts, such as data parts, are not sent). */
function userParts(parts: readonly Record<string, unknown>[], path: string, provider: string): WirePart[] {
  return parts.flatMap((part, j): WirePart[] => {
    const at = `${path}.parts[${j}]`;
    const type = own(part, "type");
    if (type === "text") return [{ type: "text", text: stringAt(own(part, "text"), `${at}.text`) }];
    if (type !== "file") return [];
    const mediaType = stringAt(own(part, "mediaType"), `${at}.mediaType`);
    const filename = own(part, "filename") ?? undefined;
    const named = filename === undefined ? {} : { filename: stringAt(filename, `${at}.filename`) };
    return [
      fileOfUrl(stringAt(own(part, "url"), `${at}.url`), `${at}.url`, provider, mediaType, {
        media_type: mediaType,
        ...named,
      }),
    ];
  });
}
