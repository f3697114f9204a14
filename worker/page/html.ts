/** One provider choice on the page, with the model it suggests. */
export interface PageProvider {
  name: string;
  label: string;
  model: string;
}

/** The providers the page offers, in this order; only those the Worker serves are shown. */
export const PAGE_PROVIDERS: readonly PageProvider[] = [
  { name: "openai", label: "OpenAI Chat Completions (and compatibles)", model: "gpt-4o-mini" },
  { name: "openai-responses", label: "OpenAI Responses", model: "gpt-4o-mini" },
  { name: "anthropic", label: "Anthropic Messages", model: "claude-sonnet-4-6" },
  { name: "gemini", label: "Google Gemini", model: "gemini-2.5-flash" },
  { name: "gemini-interactions", label: "Gemini Interactions API", model: "gemini-3-flash-preview" },
  { name: "bedrock", label: "Amazon Bedrock (ConverseStream)", model: "amazon.nova-micro-v1:0" },
  { name: "cohere", label: "Cohere (v2 Chat)", model: "command-a-03-2025" },
  { name: "ollama", label: "Ollama (native /api/chat)", model: "llama3.2" },
];

/** The arguments of a tool that takes a city. */
const CITY = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** The prompt the page starts with. */
export const DEFAULT_PROMPT = "Is there a Tigers game in Detroit today, and what is the weather there?";

/**
 * The tools the page sends with a prompt (editable on the page): those that the recording the
 * default prompt picks calls, for every provider, with the arguments it sends, so that ticking
 * `early_validation` on the untouched page marks no call invalid (test/worker/page-and-health.test.ts).
 */
export const DEFAULT_TOOLS: readonly { name: string; description: string; parameters: object }[] = [
  {
    name: "search",
    description: "Search the web",
    parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
  },
  {
    name: "weather",
    description: "Current weather in a city",
    parameters: { type: "object", properties: { city: { type: "string" }, location: { type: "string" } } },
  },
  { name: "get_weather", description: "Current weather in a city", parameters: CITY },
  { name: "get_temperature", description: "Current temperature in a city", parameters: CITY },
  { name: "cityAttractions", description: "Things to see in a city", parameters: CITY },
];

/**
 * The demo page: a form and an output region, no inline script or style (the CSP forbids
 * them); /page.js drives it with the library's own browser build.
 */
export function renderPage(providers: readonly string[]): string {
  const options = PAGE_PROVIDERS.filter((p) => providers.includes(p.name))
    .map((p) => `<option value="${p.name}" data-model="${p.model}">${p.label}</option>`)
    .join("");
  const model = PAGE_PROVIDERS.find((p) => providers.includes(p.name))?.model ?? "";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tool-call-stream</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/page.css">
<script type="module" src="/page.js"></script>
</head>
<body>
<header>
<h1>tool-call-stream</h1>
<p>Sends a prompt to <code>POST /v1/stream</code> (or, in run mode, <code>POST /v1/run</code>, where the Worker runs the tools and calls the model again) and shows the normalized events as they arrive: the text, and one card per tool call whose arguments fill in while they stream, with its result under it in run mode. Without a provider key a scripted model calls the tools you send (arguments valid against their schemas, taken from the prompt), or a recorded provider stream plays when the prompt says <code>replay &lt;name&gt;</code> or asks what it answers with the tools it calls; in run mode the scripted model calls the Worker's tools and answers from their results.</p>
</header>
<main>
<form id="prompt-form" novalidate>
<div class="fields">
<p><label for="provider">Provider</label>
<select id="provider" name="provider">${options}</select></p>
<p><label for="model">Model</label>
<input id="model" name="model" value="${model}" required autocomplete="off" spellcheck="false"></p>
</div>
<p><label for="prompt">Prompt</label>
<textarea id="prompt" name="prompt" rows="3" required>${escapeHtml(DEFAULT_PROMPT)}</textarea></p>
<details>
<summary>Tools sent with the prompt</summary>
<p><label for="tools">Tool definitions (JSON array of <code>{name, description, parameters}</code>)</label>
<textarea id="tools" name="tools" rows="10" spellcheck="false">${escapeHtml(JSON.stringify(DEFAULT_TOOLS, null, 2))}</textarea></p>
</details>
<fieldset class="checks">
<legend>Schema checks while the arguments stream</legend>
<label><input type="checkbox" id="early-validation" name="early_validation"> Mark a call invalid the moment its arguments can no longer match its tool's schema (<code>early_validation</code>)</label>
<label><input type="checkbox" id="abort-on-violation" name="abort_on_violation"> And end the stream there, cancelling the request (<code>abort_on_violation</code>)</label>
</fieldset>
<p><label for="token">Client token</label>
<input id="token" name="token" type="password" autocomplete="off" aria-describedby="token-hint">
<span id="token-hint" class="hint">The Worker's <code>CLIENT_TOKEN</code>. Not needed for the replay of <code>npm start</code>.</span></p>
<div class="actions">
<button type="submit" id="send">Send</button>
<button type="button" id="stop" disabled>Stop</button>
</div>
</form>
<section id="answer" aria-labelledby="answer-heading">
<h2 id="answer-heading">Answer</h2>
<p id="status" role="status">Ready.</p>
<div id="text" class="text" aria-live="polite"></div>
<details id="reasoning-box" hidden><summary>Reasoning</summary><div id="reasoning" class="reasoning"></div></details>
<h3 id="calls-heading">Tool calls</h3>
<ol id="calls" class="calls" aria-labelledby="calls-heading"></ol>
</section>
</main>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
