// Recorded provider streams replayed when no provider key is configured. Copied from
// shared/fixtures (see its README.md); each NDJSON line is kept byte-for-byte with its newline.
import type { Recording } from "../recording.ts";

/** Recorded `ollama` streams; the first is the default. */
export const ollamaRecordings: readonly Recording[] = [
  {
    // Source (ollama/native-tool-call.ndjson), from shared/fixtures/README.md:
    // | `ollama/native-tool-call.ndjson` | Ollama `/api/chat` | NDJSON (`application/x-ndjson`), one JSON object per line | a whole call (arguments an object, no id, no index) on a `done: false` line; the `done: true` line says `done_reason: "stop"` even though the model called a tool | the "Chat request (Streaming with tools)" example of [ollama/ollama `docs/api.md`](https://github.com/ollama/ollama/blob/948f69330acf96a2310f1b53fdfc211731a386d8/docs/api.md) | yes: the documented objects, printed one per line without spaces |
    name: "native-tool-call",
    keywords: ["tokyo", "weather"],
    tools: ["get_weather"],
    contentType: "application/x-ndjson",
    events: [
      '{"model":"llama3.2","created_at":"2025-07-07T20:22:19.184789Z","message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Tokyo"}}}]},"done":false}\n',
      '{"model":"llama3.2","created_at":"2025-07-07T20:22:19.19314Z","message":{"role":"assistant","content":""},"done_reason":"stop","done":true,"total_duration":182242375,"load_duration":41295167,"prompt_eval_count":169,"prompt_eval_duration":24573166,"eval_count":15,"eval_duration":115959084}\n',
    ],
  },
];
