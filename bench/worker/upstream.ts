// The local upstream of `npm run bench:worker` and `bench/worker/profile.ts`: a Node HTTP server
// on 127.0.0.1 that answers every POST to /v1/<path> with that path's provider body, at one of
// three paces (`upstream.pace`, switched between phases of a run):
//   full    the whole body at once, in one write (with a content-length): a Worker's read
//           carries up to 64 KiB, hundreds of events;
//   event   one SSE event per write, a turn of the upstream's event loop (`setImmediate`) between
//           writes: a model streaming one event per token as fast as the upstream can write;
//   tokens  PACE_EVENTS events per write (default 3), one write every PACE_MS ms (default 5):
//           a fast model's rate (600 events a second by default), slow enough that a Worker that
//           keeps up reads each write on its own.
// Paced bodies go out chunked (no content-length); Node's HTTP server disables Nagle's algorithm,
// so each write leaves as its own segment. A client that goes away stops its body.
import { createServer, type Server } from "node:http";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";

/** How the upstream writes a body. */
export type Pace = "full" | "event" | "tokens";

/** A body the upstream serves. */
export interface UpstreamBody {
  /** The upstream path, after /v1. */
  path: string;
  bytes: Uint8Array;
}

/** The running upstream: its origin, and the pace it serves at (set between phases). */
export interface Upstream {
  server: Server;
  origin: string;
  pace: Pace;
}

/** Events per write of the `tokens` pace, and the milliseconds between its writes. */
export const PACE_EVENTS: number = Number(process.env["PACE_EVENTS"] ?? 3);
export const PACE_MS: number = Number(process.env["PACE_MS"] ?? 5);

/** The SSE events of a body (each with its blank line), as byte views. */
export function sseEvents(bytes: Uint8Array): Uint8Array[] {
  const events: Uint8Array[] = [];
  let start = 0;
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1))
    if (bytes[i + 1] === 10) {
      events.push(bytes.subarray(start, i + 2));
      start = i + 2;
      i++;
    }
  if (start < bytes.length) events.push(bytes.subarray(start));
  return events;
}

/** `events` in groups of `size`, each group one byte array (one write). */
function grouped(events: readonly Uint8Array[], size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < events.length; i += size) out.push(Buffer.concat(events.slice(i, i + size)));
  return out;
}

/** Starts the upstream on a free port of 127.0.0.1, at the `full` pace. */
export function startUpstream(list: readonly UpstreamBody[]): Promise<Upstream> {
  const byPath = new Map(
    list.map((body) => {
      const events = sseEvents(body.bytes);
      return [`/v1/${body.path}`, { bytes: body.bytes, events, groups: grouped(events, PACE_EVENTS) }];
    }),
  );
  const upstream = { pace: "full" } as Upstream;
  upstream.server = createServer((request, response) => {
    request.resume();
    request.on("end", async () => {
      const body = byPath.get(request.url ?? "");
      if (!body) return void response.writeHead(404).end();
      if (upstream.pace === "full") {
        response.writeHead(200, { "content-type": "text/event-stream", "content-length": String(body.bytes.length) });
        return void response.end(body.bytes);
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      let gone = false;
      response.once("close", () => void (gone = true));
      const writes = upstream.pace === "event" ? body.events : body.groups;
      for (const chunk of writes) {
        if (gone) return;
        response.write(chunk);
        await (upstream.pace === "event" ? nextTurn() : sleep(PACE_MS));
      }
      response.end();
    });
  });
  // A Worker idle past Node's 5 s keep-alive (another target's batch, a loaded machine, callgrind)
  // may send its next request on the pooled connection Node just closed: a 502 that ends the run.
  upstream.server.keepAliveTimeout = 600_000;
  return new Promise((resolve) =>
    upstream.server.listen(0, "127.0.0.1", () => {
      upstream.origin = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
      resolve(upstream);
    }),
  );
}
