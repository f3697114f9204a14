// The demo page's script: posts the form to /v1/stream and reads the answer with the library's
// own client stages (SSEDecoderStream -> ToolCallEventDecoderStream), bundled for the browser.
import { SSEDecoderStream, ToolCallEventDecoderStream } from "../../../src/index.ts";
import { StreamView } from "./stream-view.ts";

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const form = byId<HTMLFormElement>("prompt-form");
const provider = byId<HTMLSelectElement>("provider");
const model = byId<HTMLInputElement>("model");
const prompt = byId<HTMLTextAreaElement>("prompt");
const tools = byId<HTMLTextAreaElement>("tools");
const token = byId<HTMLInputElement>("token");
const send = byId<HTMLButtonElement>("send");
const stop = byId<HTMLButtonElement>("stop");
const answer = byId<HTMLElement>("answer");
const elements = {
  status: byId<HTMLElement>("status"),
  text: byId<HTMLElement>("text"),
  reasoning: byId<HTMLElement>("reasoning"),
  reasoningBox: byId<HTMLDetailsElement>("reasoning-box"),
  calls: byId<HTMLOListElement>("calls"),
};
let running: AbortController | undefined;

provider.addEventListener("change", () => {
  model.value = provider.selectedOptions[0]?.dataset["model"] ?? model.value;
});
stop.addEventListener("click", () => running?.abort());
form.addEventListener("submit", (event) => {
  event.preventDefault();
  void run();
});

async function run(): Promise<void> {
  const view = new StreamView(elements);
  const body = requestBody(view);
  if (!body) return;
  running = new AbortController();
  setBusy(true);
  try {
    view.status("Sending…");
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (token.value !== "") headers["authorization"] = `Bearer ${token.value}`;
    const response = await fetch("/v1/stream", { method: "POST", headers, body, signal: running.signal });
    if (!response.ok || !response.body) return view.status(await httpError(response));
    const recording = response.headers.get("x-replay-recording");
    view.status(recording ? `Streaming the replayed recording “${recording}”…` : "Streaming…");
    const events = response.body.pipeThrough(new SSEDecoderStream()).pipeThrough(new ToolCallEventDecoderStream());
    const reader = events.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      view.apply(value);
    }
  } catch {
    // A failed fetch or read: either the Stop button, or the network.
    view.stopped(running.signal.aborted ? "Stopped: the request was cancelled." : "The connection failed.");
  } finally {
    setBusy(false);
  }
}

function requestBody(view: StreamView): string | undefined {
  let toolList: unknown;
  try {
    toolList = JSON.parse(tools.value || "[]");
  } catch {
    view.status("The tool definitions are not valid JSON.");
    tools.closest("details")?.setAttribute("open", "");
    tools.focus();
    return undefined;
  }
  return JSON.stringify({
    provider: provider.value,
    model: model.value.trim(),
    messages: [{ role: "user", content: prompt.value }],
    tools: toolList,
  });
}

async function httpError(response: Response): Promise<string> {
  const text = await response.text();
  let message: string | undefined;
  try {
    message = (JSON.parse(text) as { error?: { message?: string } }).error?.message;
  } catch {
    message = response.statusText; // not one of the Worker's JSON errors
  }
  return `Error ${response.status}: ${message ?? response.statusText}`;
}

function setBusy(busy: boolean): void {
  answer.setAttribute("aria-busy", String(busy));
  send.disabled = busy;
  stop.disabled = !busy;
  if (!busy) running = undefined;
}
