// A recorded multi-step tool conversation, used by the tool-loop tests. Data only: every
// request body and every streamed response body is copied verbatim from the recording named
// below (one recorded exchange, in order); nothing here was written by hand.
//
// https://github.com/pydantic/pydantic-ai/blob/1f0dc22f47cbb64bed1634c71316b3f54729789d/tests/models/cassettes/test_anthropic/test_anthropic_local_shell_toolset_stream.yaml
// repository pydantic/pydantic-ai, commit 1f0dc22f47cbb64bed1634c71316b3f54729789d,
// path tests/models/cassettes/test_anthropic/test_anthropic_local_shell_toolset_stream.yaml
// (a VCR cassette of api.anthropic.com): `request` is each interaction's `parsed_body`, `response` its body string.
import type { RecordedConversation } from "../conversation.ts";

/** Anthropic Messages (claude-sonnet-4-6): one `bash` tool_use (after a ping), then a text answer. */
export const anthropicShellTwoPlusTwo: RecordedConversation = {
  name: "anthropic-shell-two-plus-two",
  provider: "anthropic",
  source:
    "https://github.com/pydantic/pydantic-ai/blob/1f0dc22f47cbb64bed1634c71316b3f54729789d/tests/models/cassettes/test_anthropic/test_anthropic_local_shell_toolset_stream.yaml",
  keywords: ["2 + 2", "python", "calculate", "shell"],
  steps: [
    {
      request: {
        max_tokens: 4096,
        messages: [
          {
            content: [
              {
                text: "What is 2 + 2? Use python to calculate it.",
                type: "text",
              },
            ],
            role: "user",
          },
        ],
        model: "claude-sonnet-4-6",
        stream: true,
        system: "Always use the shell tool. Keep responses brief.",
        tool_choice: {
          type: "auto",
        },
        tools: [
          {
            name: "bash",
            type: "bash_20250124",
          },
        ],
      },
      response:
        'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-6","id":"msg_016qmMxFjrLSYY2paN55KqFC","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":774,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_015Rk6ndKaiXYx9AiJcpUR2H","name":"bash","input":{}}}\n\nevent: ping\ndata: {"type": "ping"}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}\n\nevent: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\\"command\\": \\"python3 -c \\\\\\"print(2 + 2)\\\\\\"\\"}"}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":65}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    },
    {
      request: {
        max_tokens: 4096,
        messages: [
          {
            content: [
              {
                text: "What is 2 + 2? Use python to calculate it.",
                type: "text",
              },
            ],
            role: "user",
          },
          {
            content: [
              {
                id: "toolu_015Rk6ndKaiXYx9AiJcpUR2H",
                input: {
                  command: 'python3 -c "print(2 + 2)"',
                },
                name: "bash",
                type: "tool_use",
              },
            ],
            role: "assistant",
          },
          {
            content: [
              {
                content: "4",
                tool_use_id: "toolu_015Rk6ndKaiXYx9AiJcpUR2H",
                type: "tool_result",
              },
            ],
            role: "user",
          },
        ],
        model: "claude-sonnet-4-6",
        stream: true,
        system: "Always use the shell tool. Keep responses brief.",
        tool_choice: {
          type: "auto",
        },
        tools: [
          {
            name: "bash",
            type: "bash_20250124",
          },
        ],
      },
      response:
        'event: message_start\ndata: {"type":"message_start","message":{"model":"claude-sonnet-4-6","id":"msg_011fHpYwuemfFdxg8x6fvsd8","type":"message","role":"assistant","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":953,"cache_creation_input_tokens":0,"cache_read_input_tokens":0,"output_tokens":3}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"The result"}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" of **2"}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" + 2 ="}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" 4**!"}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" 🎉"}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":22}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n',
    },
  ],
};
