// A chat page on the AI SDK's framework-free chat class (`AbstractChat` of `ai`, the class that
// `useChat` of @ai-sdk/react wraps) with its `DefaultChatTransport`, against the Worker's
// POST /v1/ui. Bundled for the browser by the end-to-end test. `?model=<provider>/<model>` picks
// the provider; `?run=1` asks the Worker to run its tools at the edge.
import { AbstractChat, DefaultChatTransport, type ChatState, type ChatStatus, type UIMessage } from "ai";

const params = new URLSearchParams(location.search);
const model = params.get("model") ?? "openai/gpt-4o-mini";
const run = params.get("run") === "1";
const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** The chat's state, rendered to the page on every change (what useChat does with React). */
class PageState implements ChatState<UIMessage> {
  #status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  messages: UIMessage[] = [];
  get status(): ChatStatus {
    return this.#status;
  }
  set status(status: ChatStatus) {
    this.#status = status;
    render(this);
  }
  pushMessage = (message: UIMessage): void => {
    this.messages = [...this.messages, message];
    render(this);
  };
  popMessage = (): void => {
    this.messages = this.messages.slice(0, -1);
    render(this);
  };
  replaceMessage = (index: number, message: UIMessage): void => {
    this.messages = this.messages.map((old, i) => (i === index ? message : old));
    render(this);
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

class PageChat extends AbstractChat<UIMessage> {
  constructor(transport: DefaultChatTransport<UIMessage>, state: PageState) {
    super({ transport, state });
  }
}

// Declared tools are a contract: the replayed recording's call (get_capital) is one of the app's.
const tools = run
  ? ["current_time", "calculate", "convert_units"]
  : [
      {
        name: "get_weather",
        description: "Current weather in a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
      {
        name: "get_capital",
        description: "The capital city of a country",
        parameters: { type: "object", properties: { country: { type: "string" } }, required: ["country"] },
      },
    ];
const state = new PageState();
const chat = new PageChat(
  new DefaultChatTransport({ api: "/v1/ui", body: run ? { model, run: true, tools } : { model, tools } }),
  state,
);
render(state);

byId("model").textContent = `${model}${run ? ", the Worker's tools run at the edge" : ""}`;
byId<HTMLFormElement>("chat").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>("prompt");
  void chat.sendMessage({ text: input.value });
});

function render(state: PageState): void {
  byId("status").textContent = state.error ? `error: ${state.error.message}` : state.status;
  byId("status").dataset["status"] = state.status;
  const list = byId("messages");
  list.replaceChildren(...state.messages.map(messageView));
}

function messageView(message: UIMessage): HTMLElement {
  const article = document.createElement("article");
  article.className = `message ${message.role}`;
  const who = document.createElement("h2");
  who.textContent = message.role === "user" ? "You" : "Assistant";
  article.append(who);
  for (const part of message.parts) {
    if (part.type === "text") {
      const p = document.createElement("p");
      p.className = "text";
      p.textContent = part.text;
      article.append(p);
    } else if (part.type.startsWith("tool-")) {
      article.append(
        toolView(
          part as unknown as {
            type: string;
            toolCallId: string;
            state: string;
            input?: unknown;
            output?: unknown;
            errorText?: string;
          },
        ),
      );
    }
  }
  return article;
}

function toolView(part: {
  type: string;
  toolCallId: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
}): HTMLElement {
  const section = document.createElement("section");
  section.className = "tool";
  section.dataset["state"] = part.state;
  const head = document.createElement("header");
  const name = document.createElement("h3");
  name.textContent = part.type.slice("tool-".length);
  const state = document.createElement("span");
  state.className = "state";
  state.textContent = part.state;
  const id = document.createElement("code");
  id.textContent = part.toolCallId;
  head.append(name, id, state);
  section.append(head, block("input", part.input));
  if (part.state === "output-available") section.append(block("output", part.output));
  if (part.state === "output-error") section.append(block("error", part.errorText));
  return section;
}

function block(kind: string, value: unknown): HTMLElement {
  const pre = document.createElement("pre");
  pre.className = kind;
  pre.textContent = `${kind}: ${JSON.stringify(value, null, 2)}`;
  return pre;
}
