// Gemini's `finishMessage` (@google/genai 3.3.0's `Candidate.finishMessage`, "Describes the reason
// the model stopped generating tokens") on a failed finish, through the Worker. A filter's (SAFETY,
// ...) is the refusal's explanation, which each client protocol with a place for one gets, as it
// gets Anthropic's `stop_details` explanation (./agent-anthropic-stop-details.test.ts): Messages'
// `stop_details.explanation`, Chat Completions' `message.refusal`, a Responses `refusal` part; so is
// Vertex's `promptFeedback.blockReasonMessage` on a blocked prompt, a refusal too. An
// error's (MALFORMED_FUNCTION_CALL: "Malformed function call: " and the model's code) is the
// library's provider error's `data`, which the Worker never sends (worker/services/without-provider-data.ts):
// the client reads the library's sentence, on every endpoint.
import { describe, expect, it } from "vitest";
import { anthropicClient, openAIClient, post } from "./client-support.ts";
import { FakeUpstream, readSSE, testEnv, worker } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", GEMINI_API_KEY: "k" });
const EXPLANATION = "The response was blocked because it may contain dangerous content.";
const MALFORMED = "Malformed function call: print(default_api.get_weather(city='Paris'))";

/** A Gemini stream: some text, then the finish with `finish` (its reason and message). */
const gemini = (finish: Record<string, unknown>): FakeUpstream =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      { candidates: [{ content: { role: "model", parts: [{ text: "Sure" }] }, index: 0 }] },
      { candidates: [{ content: { role: "model", parts: [] }, index: 0, ...finish }] },
    ].map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`),
  });

const blocked = () => gemini({ finishReason: "SAFETY", finishMessage: EXPLANATION });
const malformed = () => gemini({ finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: MALFORMED });
const MODEL = "gemini/gemini-x";

describe("Gemini's finishMessage through the Worker", () => {
  it("a filter's: Messages stop_details.explanation, streamed and whole, as @anthropic-ai/sdk reads it", async () => {
    const sdk = (upstream: FakeUpstream) => anthropicClient(upstream, env);
    const request = { model: MODEL, max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };
    const details = { type: "refusal", category: null, explanation: EXPLANATION };
    const streamed = await sdk(blocked()).messages.stream(request).finalMessage();
    expect([streamed.stop_reason, streamed.stop_details]).toEqual(["refusal", details]);
    const whole = await sdk(blocked()).messages.create(request);
    expect([whole.stop_reason, whole.stop_details]).toEqual(["refusal", details]);
  });

  it("a filter's: Chat Completions' message.refusal and a Responses refusal part, as openai-node reads them", async () => {
    const request = { model: MODEL, messages: [{ role: "user" as const, content: "hi" }] };
    const chat = await openAIClient(blocked(), env).chat.completions.stream(request).finalChatCompletion();
    expect([chat.choices[0]!.message.refusal, chat.choices[0]!.finish_reason]).toEqual([EXPLANATION, "content_filter"]);
    const response = await openAIClient(blocked(), env)
      .responses.stream({ model: MODEL, input: "hi", store: false })
      .finalResponse();
    expect(response.output.flatMap((item) => (item.type === "message" ? item.content : []))).toMatchObject([
      { type: "output_text", text: "Sure" },
      { type: "refusal", refusal: EXPLANATION },
    ]);
  });

  it("a blocked prompt's blockReasonMessage (Vertex) is the refusal's explanation too: Messages, Chat, Responses", async () => {
    const said = "The prompt was blocked due to prohibited content.";
    const prompt = () =>
      new FakeUpstream({
        kind: "sse",
        chunks: [
          `data: ${JSON.stringify({ promptFeedback: { blockReason: "PROHIBITED_CONTENT", blockReasonMessage: said } })}\r\n\r\n`,
        ],
      });
    const request = { model: MODEL, max_tokens: 64, messages: [{ role: "user" as const, content: "hi" }] };
    const message = await anthropicClient(prompt(), env).messages.stream(request).finalMessage();
    expect([message.stop_reason, message.stop_details]).toEqual([
      "refusal",
      { type: "refusal", category: null, explanation: said },
    ]);
    const chat = await openAIClient(prompt(), env).chat.completions.create({
      model: MODEL,
      messages: request.messages,
    });
    expect([chat.choices[0]!.message.refusal, chat.choices[0]!.finish_reason]).toEqual([said, "content_filter"]);
    const response = await openAIClient(prompt(), env)
      .responses.stream({ model: MODEL, input: "hi", store: false })
      .finalResponse();
    expect(response.output.flatMap((item) => (item.type === "message" ? item.content : []))).toMatchObject([
      { type: "refusal", refusal: said },
    ]);
  });

  it("an error's: /v1/stream has the provider error with the library's sentence, and Gemini's words go nowhere", async () => {
    const response = await worker(malformed()).call(
      post(
        "/v1/stream",
        { provider: "gemini", model: "gemini-x", messages: [{ role: "user", content: "hi" }] },
        { headers: { authorization: "Bearer t" } },
      ),
      env,
    );
    const text = await response.text();
    expect(text).not.toContain("default_api");
    const { events } = await readSSE(new Response(text));
    expect(events.filter((event) => event.type === "error" || event.type === "finish")).toMatchObject([
      { type: "error", error: { code: "provider-error", message: "The provider reported that the response failed." } },
      { type: "finish", reason: "error", rawReason: "MALFORMED_FUNCTION_CALL" },
    ]);
    const chat = await openAIClient(malformed(), env)
      .chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] })
      .catch((error: unknown) => error);
    expect(String((chat as Error).message)).not.toContain("default_api");
  });
});
