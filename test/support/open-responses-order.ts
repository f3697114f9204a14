// The rules of the Open Responses spec on the order of a stream and on the state of a response that
// no schema can say, beyond those of ./open-responses.ts (an item's own events, its parts' text):
// `sequence_number` counts from 0 by one; `response.created`, then `response.in_progress`, then one
// terminal event, last; every content or summary part added is closed, its text `.done` then its
// part `.done` ("The content part is then closed with response.content_part.done"), before its item
// is done; every item added is done before a completed or incomplete response; and a response's
// `status` agrees with its `error`, `incomplete_details`, `usage` and `completed_at`.

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Where an event's text goes: `text` for a content part, `summary` for a summary part; none for the others. */
function partOf(type: string): { kind: "content" | "summary"; step: "added" | "delta" | "text" | "done" } | undefined {
  if (type === "response.content_part.added") return { kind: "content", step: "added" };
  if (type === "response.content_part.done") return { kind: "content", step: "done" };
  if (type === "response.reasoning_summary_part.added") return { kind: "summary", step: "added" };
  if (type === "response.reasoning_summary_part.done") return { kind: "summary", step: "done" };
  const text = /^response\.(output_text|refusal|reasoning|reasoning_summary_text)\.(delta|done)$/.exec(type);
  if (!text) return undefined;
  return {
    kind: text[1] === "reasoning_summary_text" ? "summary" : "content",
    step: text[2] === "delta" ? "delta" : "text",
  };
}

/** The issues of the order of a stream's events (parsed, `[DONE]` left out). */
export function orderIssues(events: readonly Record<string, unknown>[]): string[] {
  const issues: string[] = [];
  const types = events.map((event) => event["type"] as string);
  events.forEach((event, n) => {
    if (event["sequence_number"] !== n)
      issues.push(`${n}: sequence_number ${String(event["sequence_number"])}, not ${n}`);
  });
  if (types[1] !== "response.in_progress") issues.push(`1: ${types[1]}, not response.in_progress`);
  const terminals = types.flatMap((type, n) => (TERMINAL.has(type) ? [n] : []));
  if (terminals.length !== 1 || terminals[0] !== events.length - 1)
    issues.push(`terminal events at ${terminals.join(", ") || "none"} of ${events.length}: one, last`);
  for (const n of [0, 1]) {
    const status = (events[n]?.["response"] as Record<string, unknown> | undefined)?.["status"];
    if (status !== "in_progress" && status !== "queued") issues.push(`${n}: ${types[n]}'s status ${String(status)}`);
  }
  // Each part's state, by `<output_index>:<kind>:<index>`: added, its text done, closed.
  const parts = new Map<string, "added" | "text" | "done">();
  const open = new Set<unknown>();
  events.forEach((event, n) => {
    const type = types[n]!;
    const at = `${n}: ${type}`;
    const output = event["output_index"];
    if (type === "response.output_item.added") open.add(output);
    if (type === "response.output_item.done") {
      open.delete(output);
      for (const [key, state] of parts)
        if (key.startsWith(`${String(output)}:`) && state !== "done") issues.push(`${at}: part ${key} is not closed`);
    }
    const part = partOf(type);
    if (!part) return;
    const key = `${String(output)}:${part.kind}:${String(event[part.kind === "summary" ? "summary_index" : "content_index"])}`;
    const state = parts.get(key);
    if (part.step === "added") {
      if (state !== undefined) issues.push(`${at}: part ${key} added twice`);
      parts.set(key, "added");
    } else if (part.step === "delta" && state !== "added")
      issues.push(`${at}: a delta of part ${key} ${state ?? "not added"}`);
    else if (part.step === "text") {
      if (state !== "added") issues.push(`${at}: the text of part ${key} done when ${state ?? "not added"}`);
      parts.set(key, "text");
    } else if (part.step === "done") {
      if (state !== "text")
        issues.push(`${at}: part ${key} closed when ${state ?? "not added"}, not after its text's .done`);
      parts.set(key, "done");
    }
  });
  const last = types.at(-1);
  if (open.size > 0 && last !== "response.failed")
    issues.push(`${last}: items ${[...open].join(", ")} added and never done`);
  return issues;
}

/** The issues of a response object's `status` against its `error`, `incomplete_details`, `usage` and `completed_at`. */
export function stateIssues(response: Record<string, unknown>, path = "response"): string[] {
  const issues: string[] = [];
  const { status, error, usage } = response as { status: unknown; error: unknown; usage: unknown };
  const incomplete = response["incomplete_details"] as { reason?: unknown } | null | undefined;
  const failed = error as { code?: unknown; message?: unknown } | null | undefined;
  if (status === "incomplete" ? typeof incomplete?.reason !== "string" : incomplete !== null)
    issues.push(`${path}: status ${String(status)} with incomplete_details ${JSON.stringify(incomplete)}`);
  if (status === "failed" ? typeof failed?.code !== "string" || typeof failed.message !== "string" : failed !== null)
    issues.push(`${path}: status ${String(status)} with error ${JSON.stringify(error)}`);
  if ((status === "completed" || status === "incomplete") && (usage === null || typeof usage !== "object"))
    issues.push(`${path}: status ${String(status)} without usage`);
  if (status === "completed" && typeof response["completed_at"] !== "number")
    issues.push(`${path}: completed without completed_at`);
  return issues;
}
