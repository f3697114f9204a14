// The UI message histories of the /v1/ui conversion test (client-ui-parts.test.ts): every part
// type ai 5, 6 and 7 declare (`UIMessagePart` in their .d.ts), tool parts in every state each
// version has, and provider metadata; with what ai's `convertToModelMessages` gives for them,
// mapped to an OpenAI Chat and an Anthropic Messages body the way the Worker maps a turn.

/** An ai version's UI part types, as the corpus writes them (a version without approvals or `custom` parts leaves them out). */
type Part = Record<string, unknown>;
const meta = { providerMetadata: { app: { tag: "x" } } };
const tool = (state: string, id: string, extra: Part = {}): Part => ({
  type: "tool-lookup",
  toolCallId: id,
  state,
  input: { query: id },
  ...extra,
});

/** The corpus for an ai major version (5, 6 or 7). */
export function corpus(version: 5 | 6 | 7): { id: string; role: string; parts: Part[] }[] {
  const approvals = version >= 6;
  return [
    { id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }] },
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "Look up ", ...meta },
        { type: "text", text: "these." },
        { type: "data-note", data: { n: 1 } },
        { type: "file", mediaType: "image/png", url: "https://example.test/a.png", filename: "a.png" },
      ],
    },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "reasoning", text: "Thinking.", state: "done", ...meta },
        { type: "text", text: "Looking", state: "done", ...meta },
        { type: "source-url", sourceId: "s1", url: "https://example.test/p", title: "P" },
        { type: "source-document", sourceId: "s2", mediaType: "application/pdf", title: "D", filename: "d.pdf" },
        { type: "file", mediaType: "image/png", url: "https://example.test/b.png" },
        { type: "data-progress", id: "d1", data: { done: 1 } },
        tool("output-available", "c1", { output: { n: 1 }, callProviderMetadata: { app: { c: 1 } } }),
        {
          type: "dynamic-tool",
          toolName: "search",
          toolCallId: "c2",
          state: "output-available",
          input: { q: "d" },
          output: "found",
        },
        {
          type: "tool-lookup",
          toolCallId: "c3",
          state: "output-error",
          input: undefined,
          rawInput: '{"query":',
          errorText: "Bad input.",
        },
        tool("output-error", "c4", { errorText: "Timed out." }),
        tool("input-streaming", "c5", { input: { que: 1 } }),
        { type: "dynamic-tool", toolName: "search", toolCallId: "c15", state: "input-streaming", input: { q: 1 } },
        { type: "dynamic-tool", toolName: "search", toolCallId: "c16", state: "input-available", input: { q: "f" } },
        {
          type: "dynamic-tool",
          toolName: "search",
          toolCallId: "c17",
          state: "output-error",
          input: { q: "g" },
          errorText: "Down.",
        },
        tool("input-available", "c6"),
        tool("output-available", "c7", { providerExecuted: true, output: { web: 1 } }),
        ...(version === 7
          ? [
              { type: "custom", kind: "app.note", ...meta },
              { type: "reasoning-file", mediaType: "image/png", url: "https://example.test/r.png" },
              { type: "steering-message", id: "st", parts: [{ type: "text", text: "Only one." }] },
            ]
          : []),
        { type: "step-start" },
        { type: "text", text: "Done." },
        ...(approvals
          ? [
              { type: "step-start" },
              tool("approval-requested", "c8", { approval: { id: "p8" } }),
              // An approved call whose tool has not run (c9) is client-ui-approvals.test.ts's: a 400 here, before the last message.
              tool("approval-responded", "c10", { approval: { id: "p10", approved: false, reason: "Not now." } }),
              tool("output-denied", "c11", { approval: { id: "p11", approved: false, reason: "No." } }),
              tool("output-denied", "c12", { approval: { id: "p12", approved: false } }),
              tool("output-available", "c13", { output: "ok", approval: { id: "p13", approved: true } }),
              {
                type: "dynamic-tool",
                toolName: "search",
                toolCallId: "c14",
                state: "approval-responded",
                input: { q: "e" },
                approval: { id: "p14", approved: false },
              },
            ]
          : []),
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Next?" }] },
  ];
}

/** A model message as ai 5, 6 and 7's `convertToModelMessages` give it (the fields this test reads). */
export type ModelMessage = { role: string; content: string | Record<string, unknown>[] };
type UserPart = { type: "text"; text: string } | { type: "file"; url: string };
type Call = { id: string; name: string; input: unknown };
type Turn =
  | { role: "system"; text: string }
  | { role: "user"; content: UserPart[] }
  | { role: "assistant"; text: string; calls: Call[] }
  | { role: "tool"; id: string; content: string };

/** What the Worker says for a call the user denied (README: the denial names the user, with the reason). */
export const denied = (reason: unknown): string =>
  `The user denied this call${typeof reason === "string" && reason !== "" ? `: ${reason}` : "."}`;

const urlOf = (data: unknown): string => (typeof data === "string" ? data : String((data as { url: unknown }).url));

/**
 * ai's model messages as the turns the Worker sends, with the Worker's documented choices (worker/README.md's
 * `/v1/ui`): a step's text parts joined, its calls after its text; reasoning (without the Worker's own
 * seal), assistant files, `custom` and `reasoning-file` parts and provider metadata not sent; calls
 * without an outcome (waiting for input, output or approval) and calls the provider ran not sent, nor a
 * step left with neither text nor calls; a denial in the Worker's words; an approval denied before
 * the tool ran (ai 6: an approval response alone, which `streamText` answers with a denied result) is
 * that call's result.
 */
export function turnsOf(messages: readonly ModelMessage[]): Turn[] {
  const results = new Map<string, string>();
  const approvals = new Map<string, string>();
  for (const message of messages) {
    if (typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part["type"] === "tool-approval-request")
        approvals.set(String(part["approvalId"]), String(part["toolCallId"]));
      if (part["type"] === "tool-approval-response" && part["approved"] === false)
        results.set(approvals.get(String(part["approvalId"]))!, denied(part["reason"]));
      if (part["type"] !== "tool-result" || message.role !== "tool") continue;
      const output = part["output"] as { type: string; value?: unknown; reason?: unknown };
      const id = String(part["toolCallId"]);
      if (results.has(id)) continue;
      results.set(
        id,
        output.type === "execution-denied"
          ? denied(output.reason)
          : output.type === "json"
            ? JSON.stringify(output.value)
            : String(output.value),
      );
    }
  }
  return messages.flatMap((message): Turn[] => {
    const parts = typeof message.content === "string" ? [] : message.content;
    const of = (type: string) => parts.filter((part) => part["type"] === type);
    if (message.role === "system") return [{ role: "system", text: message.content as string }];
    if (message.role === "user")
      return [
        {
          role: "user",
          content: parts.flatMap((part): UserPart[] =>
            part["type"] === "text"
              ? [{ type: "text" as const, text: String(part["text"]) }]
              : part["type"] === "file"
                ? [{ type: "file" as const, url: urlOf(part["data"]) }]
                : [],
          ),
        },
      ];
    if (message.role === "tool") {
      // A call's result once, where ai puts its approval response or its result.
      const sent = new Set<string>();
      return parts.flatMap((part): Turn[] => {
        const id =
          part["type"] === "tool-result"
            ? String(part["toolCallId"])
            : part["type"] === "tool-approval-response" && part["approved"] === false
              ? approvals.get(String(part["approvalId"]))!
              : undefined;
        if (id === undefined || sent.has(id)) return [];
        sent.add(id);
        return [{ role: "tool", id, content: results.get(id)! }];
      });
    }
    const calls = of("tool-call")
      .filter((part) => part["providerExecuted"] !== true && results.has(String(part["toolCallId"])))
      .map((part) => ({ id: String(part["toolCallId"]), name: String(part["toolName"]), input: part["input"] }));
    const text = of("text")
      .map((part) => String(part["text"]))
      .join("");
    return of("text").length > 0 || calls.length > 0 ? [{ role: "assistant", text, calls }] : [];
  });
}

const joined = (turn: Turn & { role: "user" }): string =>
  turn.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/** The turns as the Worker writes an OpenAI Chat body's `messages`: a user's text parts one string unless it has files. */
export function openAIMessages(turns: readonly Turn[]): unknown[] {
  return turns.map((turn) => {
    if (turn.role === "system") return { role: "system", content: turn.text };
    if (turn.role === "tool") return { role: "tool", tool_call_id: turn.id, content: turn.content };
    if (turn.role === "user")
      return turn.content.some((part) => part.type === "file")
        ? {
            role: "user",
            content: turn.content.map((part) =>
              part.type === "text" ? part : { type: "image_url", image_url: { url: part.url } },
            ),
          }
        : { role: "user", content: joined(turn) };
    const calls = turn.calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    }));
    return calls.length === 0
      ? { role: "assistant", content: turn.text }
      : { role: "assistant", content: turn.text === "" ? null : turn.text, tool_calls: calls };
  });
}

/**
 * The turns as the Worker writes an Anthropic Messages body: `system` apart, results in the user's
 * turn, turns of one role merged, a call's input that is no object (ai keeps the text of one that
 * did not parse) `{}`.
 */
export function anthropicBody(turns: readonly Turn[]): { system: string | null; messages: unknown[] } {
  const messages: { role: string; content: unknown[] }[] = [];
  const push = (role: string, content: unknown[]) => {
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  let system: string | null = null;
  for (const turn of turns) {
    if (turn.role === "system") system = turn.text;
    else if (turn.role === "tool") push("user", [{ type: "tool_result", tool_use_id: turn.id, content: turn.content }]);
    else if (turn.role === "user")
      push(
        "user",
        turn.content.some((part) => part.type === "file")
          ? turn.content.map((part) =>
              part.type === "text" ? part : { type: "image", source: { type: "url", url: part.url } },
            )
          : [{ type: "text", text: joined(turn) }],
      );
    else
      push("assistant", [
        ...(turn.text === "" ? [] : [{ type: "text", text: turn.text }]),
        ...turn.calls.map((call) => ({
          type: "tool_use",
          id: call.id,
          name: call.name,
          input: typeof call.input === "object" && call.input !== null ? call.input : {},
        })),
      ]);
  }
  return { system, messages };
}
