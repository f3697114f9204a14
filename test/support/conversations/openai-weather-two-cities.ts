// A recorded multi-step tool conversation, used by the tool-loop tests. Data only: every
// request body and every streamed response body is copied verbatim from the recording named
// below (one recorded exchange, in order); nothing here was written by hand.
//
// https://github.com/open-telemetry/opentelemetry-js-contrib/blob/3424f810e04c7f86a136e22dd79ad1300177e83b/packages/instrumentation-openai/test/mock-responses/openai-streaming-chat-completions-records-tool-calls.json
// repository open-telemetry/opentelemetry-js-contrib, commit 3424f810e04c7f86a136e22dd79ad1300177e83b,
// path packages/instrumentation-openai/test/mock-responses/openai-streaming-chat-completions-records-tool-calls.json
// (a nock recording of api.openai.com, 2025-07-17): `request` is each entry's `body`, `response` its `response`.
import type { RecordedConversation } from "../conversation.ts";

/** OpenAI Chat Completions (gpt-4o-mini-2024-07-18): two parallel `get_weather` calls, then a text answer. */
export const openaiWeatherTwoCities: RecordedConversation = {
  name: "openai-weather-two-cities",
  provider: "openai",
  source:
    "https://github.com/open-telemetry/opentelemetry-js-contrib/blob/3424f810e04c7f86a136e22dd79ad1300177e83b/packages/instrumentation-openai/test/mock-responses/openai-streaming-chat-completions-records-tool-calls.json",
  keywords: ["weather", "new york", "london"],
  steps: [
    {
      request: {
        model: "gpt-4o-mini",
        messages: [
          {
            role: "system",
            content: "You are a helpful assistant providing weather updates.",
          },
          {
            role: "user",
            content: "What is the weather in New York City and London?",
          },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              strict: true,
              parameters: {
                type: "object",
                properties: {
                  location: {
                    type: "string",
                  },
                },
                required: ["location"],
                additionalProperties: false,
              },
            },
          },
        ],
        stream: true,
      },
      response:
        'data: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":null},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_9ujI2ZExKzIGa57dsFCuwSXI","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"lo"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"catio"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"n\\": \\"N"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ew Y"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ork C"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ity\\"}"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_M5Jmiz7Y7ZUiASk3ShRROpUr","type":"function","function":{"name":"get_weather","arguments":""}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\\"lo"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"catio"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"n\\": \\"L"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"ondo"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"n\\"}"}}]},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpRr8h0kwBLc53wzb0GeYXsWCcX","object":"chat.completion.chunk","created":1752739225,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
    },
    {
      request: {
        model: "gpt-4o-mini",
        messages: [
          {
            role: "system",
            content: "You are a helpful assistant providing weather updates.",
          },
          {
            role: "user",
            content: "What is the weather in New York City and London?",
          },
          {
            role: "assistant",
            tool_calls: [
              {
                index: 0,
                id: "call_9ujI2ZExKzIGa57dsFCuwSXI",
                type: "function",
                function: {
                  name: "get_weather",
                  arguments: '{"location": "New York City"}',
                },
              },
              {
                index: 1,
                id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr",
                type: "function",
                function: {
                  name: "get_weather",
                  arguments: '{"location": "London"}',
                },
              },
            ],
          },
          {
            role: "tool",
            tool_call_id: "call_9ujI2ZExKzIGa57dsFCuwSXI",
            content: "25 degrees and sunny",
          },
          {
            role: "tool",
            tool_call_id: "call_M5Jmiz7Y7ZUiASk3ShRROpUr",
            content: "15 degrees and raining",
          },
        ],
        tools: [
          {
            type: "function",
            function: {
              name: "get_weather",
              strict: true,
              parameters: {
                type: "object",
                properties: {
                  location: {
                    type: "string",
                  },
                },
                required: ["location"],
                additionalProperties: false,
              },
            },
          },
        ],
        stream: true,
      },
      response:
        'data: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"The"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" weather"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" in"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" New"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" York"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" City"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" is"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" "},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"25"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" degrees"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" and"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" sunny"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":","},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" while"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" in"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" London"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":","},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" it"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" is"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" "},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"15"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" degrees"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" and"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":" raining"},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{"content":"."},"logprobs":null,"finish_reason":null}]}\n\ndata: {"id":"chatcmpl-BuDpTOhzJCQLCyjQ8OcbJsShIN7XM","object":"chat.completion.chunk","created":1752739227,"model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":null,"choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n',
    },
  ],
};
