// Streams of Gemini's Interactions API replayed when no key is configured. No real capture was
// available: these are the streams test/recordings/gemini-interactions/ builds from the docs'
// examples and the SDK's types (its README.md says from what), each event kept with its framing.
import type { Recording } from "../recording.ts";

/** `gemini-interactions` streams; the first is the default. */
export const geminiInteractionsRecordings: readonly Recording[] = [
  {
    // Source (test/recordings/gemini-interactions/docs-function-call-with-google-search.sse): the streaming page's "Streaming with multiple tools" REST output, byte for byte: a server-side google_search step, a thought signature, one get_weather function_call, requires_action.
    name: "docs-function-call-with-google-search",
    keywords: ["mountain", "europe", "elbrus"],
    tools: ["get_weather"],
    events: [
      'event: interaction.created\ndata: {"interaction":{"id":"v1_...","status":"in_progress","object":"interaction","model":"gemini-3-flash-preview"},"event_type":"interaction.created"}\n\n',
      'event: interaction.status_update\ndata: {"interaction_id":"v1_...","status":"in_progress","event_type":"interaction.status_update"}\n\n',
      'event: step.start\ndata: {"index":0,"step":{"id":"mkutnkgn","signature":"","type":"google_search_call"},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":0,"delta":{"signature":"...","type":"google_search_call","arguments":{"queries":["largest mountain in Europe"]}},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":0,"event_type":"step.stop"}\n\n',
      'event: step.start\ndata: {"index":1,"step":{"call_id":"mkutnkgn","signature":"","type":"google_search_result"},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":1,"delta":{"signature":"...","type":"google_search_result","is_error":false},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":1,"event_type":"step.stop"}\n\n',
      'event: step.start\ndata: {"index":2,"step":{"type":"thought"},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":2,"delta":{"signature":"...","type":"thought_signature"},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":2,"event_type":"step.stop"}\n\n',
      'event: step.start\ndata: {"index":3,"step":{"id":"ktr5aysg","type":"function_call","name":"get_weather","arguments":{}},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":3,"delta":{"arguments":"{\\"location\\":\\"Mount Elbrus, Russia\\"}","type":"arguments_delta"},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":3,"event_type":"step.stop"}\n\n',
      'event: interaction.completed\ndata: {"interaction":{"id":"v1_...","status":"requires_action","usage":{"total_tokens":299,"total_input_tokens":138,"input_tokens_by_modality":[{"modality":"text","tokens":138}],"total_cached_tokens":0,"total_output_tokens":20,"total_tool_use_tokens":0,"total_thought_tokens":141},"created":"2026-05-12T17:24:26Z","updated":"2026-05-12T17:24:26Z","service_tier":"standard","object":"interaction","model":"gemini-3-flash-preview"},"event_type":"interaction.completed"}\n\n',
      "event: done\ndata: [DONE]\n\n",
    ],
  },
  {
    // Source (test/recordings/gemini-interactions/sdk-parallel-calls-chunked-arguments.sse): built from @google/genai 3.3.0's types: a thought summary and signature, text, two get_weather calls with signatures and chunked arguments.
    name: "sdk-parallel-calls-chunked-arguments",
    keywords: ["oslo", "lima"],
    tools: ["get_weather"],
    events: [
      'event: interaction.created\ndata: {"event_type":"interaction.created","interaction":{"id":"v1_parallel","status":"in_progress","object":"interaction","model":"gemini-3-flash-preview"},"event_id":"evt_001"}\n\n',
      'event: step.start\ndata: {"event_type":"step.start","index":0,"step":{"type":"thought"},"event_id":"evt_002"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":0,"delta":{"type":"thought_summary","content":{"type":"text","text":"Two cities: "}},"event_id":"evt_003"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":0,"delta":{"type":"thought_summary","content":{"type":"text","text":"one call each."}},"event_id":"evt_004"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":0,"delta":{"type":"thought_signature","signature":"EuYBCuMBARFNMg"},"event_id":"evt_005"}\n\n',
      'event: step.stop\ndata: {"event_type":"step.stop","index":0,"event_id":"evt_006"}\n\n',
      'event: step.start\ndata: {"event_type":"step.start","index":1,"step":{"type":"model_output"},"event_id":"evt_007"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":1,"delta":{"type":"text","text":"Checking both "},"event_id":"evt_008"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":1,"delta":{"type":"text","text":"cities."},"event_id":"evt_009"}\n\n',
      'event: step.stop\ndata: {"event_type":"step.stop","index":1,"event_id":"evt_010"}\n\n',
      'event: step.start\ndata: {"event_type":"step.start","index":2,"step":{"type":"function_call","id":"call_oslo","name":"get_weather","arguments":{},"signature":"c2lnLW9zbG8="},"event_id":"evt_011"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":2,"delta":{"type":"arguments_delta","arguments":"{\\"loc"},"event_id":"evt_012"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":2,"delta":{"type":"arguments_delta","arguments":"ation\\":\\"Os"},"event_id":"evt_013"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":2,"delta":{"type":"arguments_delta","arguments":"lo, Nor"},"event_id":"evt_014"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":2,"delta":{"type":"arguments_delta","arguments":"way\\",\\"unit\\":\\"c\\"}"},"event_id":"evt_015"}\n\n',
      'event: step.stop\ndata: {"event_type":"step.stop","index":2,"event_id":"evt_016"}\n\n',
      'event: step.start\ndata: {"event_type":"step.start","index":3,"step":{"type":"function_call","id":"call_lima","name":"get_weather","arguments":{},"signature":"c2lnLWxpbWE="},"event_id":"evt_017"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":3,"delta":{"type":"arguments_delta","arguments":"{\\"location\\":"},"event_id":"evt_018"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":3,"delta":{"type":"arguments_delta","arguments":"\\"Lima, Perú\\""},"event_id":"evt_019"}\n\n',
      'event: step.delta\ndata: {"event_type":"step.delta","index":3,"delta":{"type":"arguments_delta","arguments":",\\"unit\\":\\"c\\"}"},"event_id":"evt_020"}\n\n',
      'event: step.stop\ndata: {"event_type":"step.stop","index":3,"event_id":"evt_021"}\n\n',
      'event: interaction.completed\ndata: {"event_type":"interaction.completed","interaction":{"id":"v1_parallel","status":"requires_action","usage":{"total_input_tokens":64,"total_output_tokens":41,"total_thought_tokens":12,"total_tokens":117}},"event_id":"evt_022"}\n\n',
      "event: done\ndata: [DONE]\n\n",
    ],
  },
  {
    // Source (test/recordings/gemini-interactions/docs-text-with-thought.sse): the streaming page's first REST output: a thought signature, then text.
    name: "docs-text-with-thought",
    keywords: ["count", "numbers", "text only"],
    tools: [],
    events: [
      'event: interaction.created\ndata: {"interaction":{"id":"v1_...","status":"in_progress","object":"interaction","model":"gemini-3-flash-preview"},"event_type":"interaction.created"}\n\n',
      'event: interaction.status_update\ndata: {"interaction_id":"v1_...","status":"in_progress","event_type":"interaction.status_update"}\n\n',
      'event: step.start\ndata: {"index":0,"step":{"type":"thought"},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":0,"delta":{"signature":"...","type":"thought_signature"},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":0,"event_type":"step.stop"}\n\n',
      'event: step.start\ndata: {"index":1,"step":{"type":"model_output"},"event_type":"step.start"}\n\n',
      'event: step.delta\ndata: {"index":1,"delta":{"text":"1, 2, 3, 4, 5, 6, ","type":"text"},"event_type":"step.delta"}\n\n',
      'event: step.delta\ndata: {"index":1,"delta":{"text":"7, 8, 9, 10, 11, 12, 13,","type":"text"},"event_type":"step.delta"}\n\n',
      'event: step.stop\ndata: {"index":1,"event_type":"step.stop"}\n\n',
      'event: interaction.completed\ndata: {"interaction":{"id":"v1_...","status":"completed","usage":{"total_tokens":346,"total_input_tokens":11,"input_tokens_by_modality":[{"modality":"text","tokens":11}],"total_cached_tokens":0,"total_output_tokens":90,"total_tool_use_tokens":0,"total_thought_tokens":245},"created":"2026-05-12T18:44:51Z","updated":"2026-05-12T18:44:51Z","service_tier":"standard","object":"interaction","model":"gemini-3-flash-preview"},"event_type":"interaction.completed"}\n\n',
      "event: done\ndata: [DONE]\n\n",
    ],
  },
];
