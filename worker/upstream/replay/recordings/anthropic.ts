// Recorded provider streams replayed when no provider key is configured. Copied from
// shared/fixtures (see its README.md); each event is kept byte-for-byte with its framing.
import type { Recording } from "../recording.ts";

/** Recorded `anthropic` streams; the first is the default. */
export const anthropicRecordings: readonly Recording[] = [
  {
    // Source (anthropic/parallel-tool-use.sse), from shared/fixtures/README.md:
    // | `anthropic/parallel-tool-use.sse` | anthropic | claude-sonnet-4-20250514; text block then TWO tool_use blocks (index 1 and 2); whitespace padding inside data JSON | [prism-php/prism `tests/Fixtures/anthropic/stream-common-conversation-with-history-4.json`](https://github.com/prism-php/prism/blob/165e91c1ae12d55b49b24a408727a66df8be8558/tests/Fixtures/anthropic/stream-common-conversation-with-history-4.json) | no (raw SSE body as stored) | real recording |
    name: "parallel-tool-use",
    keywords: ["san diego", "las vegas", "activities", "activity"],
    tools: ["weather"],
    events: [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_01E22dbzAHpyh3wpB4QbTDid","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":958,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}      }\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}      }\n\n',
      'event: ping\ndata: {"type": "ping"}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I"}     }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\'ll check the weather in both"}     }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" San Diego and Las Vegas for"}    }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" you to give you activity"}              }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" recommendations for those cities too"}  }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"."}      }\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0  }\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01Q8sweAGucxMRmpQmpaUnfJ","name":"weather","input":{}} }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"ci"}              }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ty\\": \\"San D"}    }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"iego\\"}"}               }\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":1     }\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_01Bca7ngyuo1kcWBTsxqRz8j","name":"weather","input":{}}       }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}         }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\""}   }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":": \\"Las Ve"} }\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"gas\\"}"}               }\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":2      }\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":112}             }\n\n',
      'event: message_stop\ndata: {"type":"message_stop"          }\n\n',
    ],
  },
  {
    // Source (anthropic/text-then-tool-use-with-ping.sse), from shared/fixtures/README.md:
    // | `anthropic/text-then-tool-use-with-ping.sse` | anthropic | claude-sonnet-4-20250514; text block then tool_use block; ping event (payload {"type": "ping"} with a space); empty first input_json_delta; stop_reason tool_use | [anthropics/anthropic-sdk-python `tests/lib/streaming/fixtures/tool_use_response.txt`](https://github.com/anthropics/anthropic-sdk-python/blob/68c62cc7b97e27985eff22d65b9ba1854eea7a53/tests/lib/streaming/fixtures/tool_use_response.txt) | no (raw SSE body as stored) | real recording; appended the final blank line that terminates the last event (missing in the stored file) |
    name: "text-then-tool-use-with-ping",
    keywords: ["paris", "france"],
    tools: ["get_weather"],
    events: [
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_019Q1hrJbZG26Fb9BQhrkHEr","type":"message","role":"assistant","model":"claude-sonnet-4-20250514","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":377,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":1,"service_tier":"standard"}}}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
      'event: ping\ndata: {"type": "ping"}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"I"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\'ll check the current weather in Paris for you."}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n',
      'event: content_block_start\ndata: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01NRLabsLyVHZPKxbKvkfSMn","name":"get_weather","input":{}}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"locati"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"on\\": \\"P"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ar"}}\n\n',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"is\\"}"}}\n\n',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":1}\n\n',
      'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":65}}\n\n',
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    ],
  },
];
