// A recorded multi-step tool conversation, used by the tool-loop tests. Data only: every
// request body and every streamed response body is copied verbatim from the recording named
// below (one recorded exchange, in order); nothing here was written by hand.
//
// https://github.com/pydantic/pydantic-ai/blob/07b877493d0a132b6037f1a7471e15def6faec44/tests/models/cassettes/test_google/test_google_model_iter_stream.yaml
// repository pydantic/pydantic-ai, commit 07b877493d0a132b6037f1a7471e15def6faec44,
// path tests/models/cassettes/test_google/test_google_model_iter_stream.yaml
// (a VCR cassette of generativelanguage.googleapis.com): `request` is each interaction's `parsed_body`, `response` its body string.
import type { RecordedConversation } from "../conversation.ts";

/** Gemini (gemini-2.0-flash): `get_capital`, then `get_temperature`, then a text answer (three steps, CRLF framing). */
export const geminiCapitalTemperature: RecordedConversation = {
  name: "gemini-capital-temperature",
  provider: "gemini",
  source:
    "https://github.com/pydantic/pydantic-ai/blob/07b877493d0a132b6037f1a7471e15def6faec44/tests/models/cassettes/test_google/test_google_model_iter_stream.yaml",
  keywords: ["temperature", "capital", "france"],
  steps: [
    {
      request: {
        contents: [
          {
            parts: [
              {
                text: "What is the temperature of the capital of France?",
              },
            ],
            role: "user",
          },
        ],
        generationConfig: {
          responseModalities: ["TEXT"],
        },
        systemInstruction: {
          parts: [
            {
              text: "You are a helpful chatbot.",
            },
          ],
          role: "user",
        },
        tools: [
          {
            functionDeclarations: [
              {
                description: "Get the capital of a country.",
                name: "get_capital",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    country: {
                      description: "The country name.",
                      type: "string",
                    },
                  },
                  required: ["country"],
                  type: "object",
                },
              },
              {
                description: "Get the temperature in a city.",
                name: "get_temperature",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    city: {
                      description: "The city name.",
                      type: "string",
                    },
                  },
                  required: ["city"],
                  type: "object",
                },
              },
            ],
          },
        ],
      },
      response:
        'data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_capital","args": {"country": "France"}}}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 36,"candidatesTokenCount": 5,"totalTokenCount": 41,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 36}],"candidatesTokensDetails": [{"modality": "TEXT","tokenCount": 5}]},"modelVersion": "gemini-2.0-flash","responseId": "yFR8aYewE4mK6MEPo8qkyQU"}\r\n\r\n',
    },
    {
      request: {
        contents: [
          {
            parts: [
              {
                text: "What is the temperature of the capital of France?",
              },
            ],
            role: "user",
          },
          {
            parts: [
              {
                functionCall: {
                  args: {
                    country: "France",
                  },
                  id: "pyd_ai_cf4fd9bbf902480aa715df8d4104e4d0",
                  name: "get_capital",
                },
                thoughtSignature: "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=",
              },
            ],
            role: "model",
          },
          {
            parts: [
              {
                functionResponse: {
                  id: "pyd_ai_cf4fd9bbf902480aa715df8d4104e4d0",
                  name: "get_capital",
                  response: {
                    return_value: "Paris",
                  },
                },
              },
            ],
            role: "user",
          },
        ],
        generationConfig: {
          responseModalities: ["TEXT"],
        },
        systemInstruction: {
          parts: [
            {
              text: "You are a helpful chatbot.",
            },
          ],
          role: "user",
        },
        tools: [
          {
            functionDeclarations: [
              {
                description: "Get the capital of a country.",
                name: "get_capital",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    country: {
                      description: "The country name.",
                      type: "string",
                    },
                  },
                  required: ["country"],
                  type: "object",
                },
              },
              {
                description: "Get the temperature in a city.",
                name: "get_temperature",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    city: {
                      description: "The city name.",
                      type: "string",
                    },
                  },
                  required: ["city"],
                  type: "object",
                },
              },
            ],
          },
        ],
      },
      response:
        'data: {"candidates": [{"content": {"parts": [{"functionCall": {"name": "get_temperature","args": {"city": "Paris"}}}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 48,"candidatesTokenCount": 5,"totalTokenCount": 53,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 48}],"candidatesTokensDetails": [{"modality": "TEXT","tokenCount": 5}]},"modelVersion": "gemini-2.0-flash","responseId": "yVR8adiuG4mK6MEPo8qkyQU"}\r\n\r\n',
    },
    {
      request: {
        contents: [
          {
            parts: [
              {
                text: "What is the temperature of the capital of France?",
              },
            ],
            role: "user",
          },
          {
            parts: [
              {
                functionCall: {
                  args: {
                    country: "France",
                  },
                  id: "pyd_ai_cf4fd9bbf902480aa715df8d4104e4d0",
                  name: "get_capital",
                },
                thoughtSignature: "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=",
              },
            ],
            role: "model",
          },
          {
            parts: [
              {
                functionResponse: {
                  id: "pyd_ai_cf4fd9bbf902480aa715df8d4104e4d0",
                  name: "get_capital",
                  response: {
                    return_value: "Paris",
                  },
                },
              },
            ],
            role: "user",
          },
          {
            parts: [
              {
                functionCall: {
                  args: {
                    city: "Paris",
                  },
                  id: "pyd_ai_dce06312fc194feb8bce2f7f7370d35f",
                  name: "get_temperature",
                },
                thoughtSignature: "c2tpcF90aG91Z2h0X3NpZ25hdHVyZV92YWxpZGF0b3I=",
              },
            ],
            role: "model",
          },
          {
            parts: [
              {
                functionResponse: {
                  id: "pyd_ai_dce06312fc194feb8bce2f7f7370d35f",
                  name: "get_temperature",
                  response: {
                    return_value: "30°C",
                  },
                },
              },
            ],
            role: "user",
          },
        ],
        generationConfig: {
          responseModalities: ["TEXT"],
        },
        systemInstruction: {
          parts: [
            {
              text: "You are a helpful chatbot.",
            },
          ],
          role: "user",
        },
        tools: [
          {
            functionDeclarations: [
              {
                description: "Get the capital of a country.",
                name: "get_capital",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    country: {
                      description: "The country name.",
                      type: "string",
                    },
                  },
                  required: ["country"],
                  type: "object",
                },
              },
              {
                description: "Get the temperature in a city.",
                name: "get_temperature",
                parameters_json_schema: {
                  additionalProperties: false,
                  properties: {
                    city: {
                      description: "The city name.",
                      type: "string",
                    },
                  },
                  required: ["city"],
                  type: "object",
                },
              },
            ],
          },
        ],
      },
      response:
        'data: {"candidates": [{"content": {"parts": [{"text": "The temperature in"}],"role": "model"}}],"usageMetadata": {"promptTokenCount": 169,"totalTokenCount": 169,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 169}]},"modelVersion": "gemini-2.0-flash","responseId": "ylR8adSIJtii6MEP8OKEyQM"}\r\n\r\ndata: {"candidates": [{"content": {"parts": [{"text": " Paris is 30°C."}],"role": "model"},"finishReason": "STOP"}],"usageMetadata": {"promptTokenCount": 63,"candidatesTokenCount": 11,"totalTokenCount": 74,"promptTokensDetails": [{"modality": "TEXT","tokenCount": 63}],"candidatesTokensDetails": [{"modality": "TEXT","tokenCount": 11}]},"modelVersion": "gemini-2.0-flash","responseId": "ylR8adSIJtii6MEP8OKEyQM"}\r\n\r\n',
    },
  ],
};
