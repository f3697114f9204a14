// The demo page's script: posts the form to /v1/stream and reads the answer with the library's
// own client stages (SSEDecoderStream -> ToolCallEventDecoderStream), bundled for the browser.
// In run mode it posts to /v1/run instead, where the Worker runs its own tools, and shows each
// tool's result or error under its card.
import { SSEDecoderStream, ToolCallEventDecoderStream } from "../../../src/index.ts";
import { StreamView, type RunEvent } from "./stream-view.ts";

/** The Worker's demo tools (worker/demo-tools/), offered in run mode. */
const RUN_TOOLS = [
  { name: "current_time", label: "current_time: the time in a time zone" },
  { name: "calculate", label: "calculate: arithmetic, without eval" },
  { name: "convert_units", label: "convert_units: length, mass, volume, speed, time, temperature" },
  { name: "unit_table", label: "unit_table: a conversion table that fills in row by row (its result streams)" },
] as const;
const RUN_PROMPT = "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?";

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const form = byId<HTMLFormElement>("prompt-form");
const provider = byId<HTMLSelectElement>("provider");
const model = byId<HTMLInputElement>("model");
const prompt = byId<HTMLTextAreaElement>("prompt");
const tools = byId<HTMLTextAreaElement>("tools");
const token = byId<HTMLInputElement>("token");
const earlyValidation = byId<HTMLInputElement>("early-validation");
const abortOnViolation = byId<HTMLInputElement>("abort-on-violation");
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
const mode = modeSwitch();

provider.addEventListener("change", () => {
  model.value = provider.selectedOptions[0]?.dataset["model"] ?? model.value;
});
stop.addEventListener("click", () => running?.abort());
// Stopping at a violation needs the violation to be looked for.
abortOnViolation.addEventListener("change", () => void (abortOnViolation.checked && (earlyValidation.checked = true)));
earlyValidation.addEventListener("change", () => void (earlyValidation.checked || (abortOnViolation.checked = false)));
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
    const runMode = mode.run();
    const response = await fetch(runMode ? "/v1/run" : "/v1/stream", {
      method: "POST",
      headers,
      body,
      signal: running.signal,
    });
    if (!response.ok || !response.body) return view.status(await httpError(response));
    const recording = response.headers.get("x-replay-recording");
    view.status(
      recording === "scripted-model"
        ? "Running offline with the Worker's scripted model (no provider key)…"
        : recording
          ? `Streaming the replayed recording “${recording}”…`
          : "Streaming…",
    );
    if (runMode) return await readRun(response.body, view);
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

/** Reads the frames of /v1/run; each is one event (the library's decoder knows only the stream's own). */
async function readRun(body: ReadableStream<Uint8Array>, view: StreamView): Promise<void> {
  const reader = body.pipeThrough(new SSEDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    let event: unknown;
    try {
      event = JSON.parse(value.data);
    } catch {
      view.status("The Worker sent a frame that is not JSON; it was skipped.");
      continue;
    }
    if (typeof event === "object" && event !== null && (event as { type?: unknown }).type === value.event)
      view.applyRun(event as RunEvent);
  }
}

function requestBody(view: StreamView): string | undefined {
  const checks = {
    ...(earlyValidation.checked ? { early_validation: true } : {}),
    ...(abortOnViolation.checked ? { abort_on_violation: true } : {}),
  };
  if (mode.run()) {
    return JSON.stringify({
      provider: provider.value,
      model: model.value.trim(),
      messages: [{ role: "user", content: prompt.value }],
      tools: mode.tools(),
      ...checks,
    });
  }
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
    ...checks,
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

/**
 * The switch between stream mode (the model's calls, streamed) and run mode (the Worker runs its
 * tools and loops back to the model), built here so that the page's HTML stays one static form.
 * `?mode=run` starts in run mode.
 */
function modeSwitch(): { run: () => boolean; tools: () => string[] } {
  const definitions = tools.closest("details");
  const fieldset = document.createElement("fieldset");
  fieldset.className = "mode";
  const legend = document.createElement("legend");
  legend.textContent = "Mode";
  fieldset.append(legend);
  const radio = (value: string, text: string): HTMLInputElement => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "radio";
    input.name = "mode";
    input.value = value;
    label.append(input, ` ${text}`);
    fieldset.append(label);
    return input;
  };
  const stream = radio("stream", "Stream the tool calls (POST /v1/stream)");
  const run = radio("run", "Run tools at the edge and loop back to the model (POST /v1/run)");
  const toolBox = document.createElement("fieldset");
  toolBox.className = "run-tools";
  const toolLegend = document.createElement("legend");
  toolLegend.textContent = "Tools the Worker runs";
  toolBox.append(toolLegend);
  const boxes = RUN_TOOLS.map(({ name, label: text }) => {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = name;
    input.checked = true;
    label.append(input, ` ${text}`);
    toolBox.append(label);
    return input;
  });
  const hint = document.createElement("span");
  hint.className = "hint";
  hint.textContent =
    "Without a provider key the Worker's scripted model answers, in the chosen provider's own wire format: it calls these tools for questions about the time, arithmetic and units, and writes its answer from what they returned. A table of units calls unit_table, whose result grows row by row.";
  toolBox.append(hint);
  (definitions ?? form.querySelector(".actions"))?.before(fieldset, toolBox);
  const streamPrompt = prompt.value;
  const show = (): void => {
    const runMode = run.checked;
    toolBox.hidden = !runMode;
    if (definitions) definitions.hidden = runMode;
    if (runMode && prompt.value === streamPrompt) prompt.value = RUN_PROMPT;
    if (!runMode && prompt.value === RUN_PROMPT) prompt.value = streamPrompt;
  };
  (new URLSearchParams(location.search).get("mode") === "run" ? run : stream).checked = true;
  stream.addEventListener("change", show);
  run.addEventListener("change", show);
  show();
  return { run: () => run.checked, tools: () => boxes.filter((box) => box.checked).map((box) => box.value) };
}

function setBusy(busy: boolean): void {
  answer.setAttribute("aria-busy", String(busy));
  send.disabled = busy;
  stop.disabled = !busy;
  if (!busy) running = undefined;
}
