// A DevTools protocol session over workerd's inspector (Miniflare's `inspectorPort`, or wrangler's
// proxy), for the benchmarks that profile the Worker: bench/load/profile.ts, bench/load/heap.ts,
// bench/worker/profile.ts.
import { createRequire } from "node:module";

// The inspector wants an Origin header, which Node's own WebSocket does not send: `ws` (a dependency of wrangler).
const WebSocket = createRequire(import.meta.url)("ws");

/** A connected inspector session. */
export interface Inspector {
  /** Sends one command; resolves with its result (or its error). */
  send(method: string, params?: object): Promise<any>;
  /** Closes the session's socket. */
  close(): void;
}

/**
 * Connects to `url` (a `webSocketDebuggerUrl`, or `ws://127.0.0.1:<port>/core:user:<worker>`);
 * `onEvent` sees each message that answers no command (`HeapProfiler.addHeapSnapshotChunk`, ...).
 */
export async function connectInspector(
  url: string,
  onEvent?: (method: string, params: any) => void,
): Promise<Inspector> {
  const socket = new WebSocket(url, { headers: { origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let lastId = 0;
  const replies = new Map<number, (result: unknown) => void>();
  socket.on("message", (data: unknown) => {
    const message = JSON.parse(String(data)) as {
      id?: number;
      method?: string;
      params?: any;
      result?: unknown;
      error?: unknown;
    };
    if (message.id === undefined) return void (message.method && onEvent?.(message.method, message.params));
    replies.get(message.id)?.(message.result ?? message.error);
    replies.delete(message.id);
  });
  return {
    send: (method, params = {}) =>
      new Promise((resolve) => {
        replies.set(++lastId, resolve);
        socket.send(JSON.stringify({ id: lastId, method, params }));
      }),
    close: () => socket.close(),
  };
}

/** The `webSocketDebuggerUrl` of the page at the inspector `port` whose title includes `title`, else of its first page. */
export async function inspectorPage(port: number | string, title?: string): Promise<string> {
  const pages = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as {
    webSocketDebuggerUrl: string;
    title?: string;
  }[];
  const page = (title === undefined ? undefined : pages.find((p) => p.title?.includes(title))) ?? pages[0]!;
  return page.webSocketDebuggerUrl;
}
