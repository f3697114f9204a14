// Every recorded provider stream through each client-protocol encoder: the strict reader of the
// protocol (test/support/protocol-readers.ts) must accept the bytes and find the calls, ids and
// text the accumulator produced; a failed response must end in the protocol's error.
import { OpenAIChatCompletionBuilder, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import {
  beforeFailure,
  countingIds,
  cutByFinish,
  ENCODERS,
  encodeAll,
  failed,
  fixtureEvents,
  recordedKind,
} from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, summarize, type Fixture } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import {
  assertCallIds,
  expectedCalls,
  readAGUIEvents,
  readChatChunks,
  readUIChunks,
} from "../support/protocol-readers.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const label = (fixture: Fixture): string => `${fixture.provider}/${fixture.name}`;
const textOf = (events: readonly ToolCallEvent[]): string => summarize(events).text;

group("OpenAIChatEncoder over every recorded stream", (test) => {
  for (const fixture of fixtures) {
    test(`${label(fixture)}: a strict Chat Completions reader gets the accumulator's calls and text`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readChatChunks(encodeAll(ENCODERS.openai(), events));
      const shown = failed(events) ? beforeFailure(events) : events;
      const expected = expectedCalls(shown);
      const choice = reading.choices.get(0);
      if (failed(events)) {
        assert(reading.error && !reading.done, "a failed response ends with an error chunk and no [DONE]");
        // A recorded rate limit is OpenAI's own (type and code), any other failure a server_error.
        const limited = recordedKind(fixture) === "rate-limited";
        assertEquals(
          [reading.error["type"], reading.error["code"]],
          limited ? ["tokens", "rate_limit_exceeded"] : ["server_error", "provider-error"],
        );
      } else {
        assert(reading.done && !reading.error, "[DONE] ends a finished response");
        const finish = events.at(-1);
        assert(finish?.type === "finish", "finish");
        const called =
          finish.reason === "stop" || finish.reason === "tool-calls"
            ? expected.length > 0
              ? "tool_calls"
              : "stop"
            : undefined;
        assertEquals(
          choice?.finishReason,
          called ??
            { length: "length", "content-filter": "content_filter", other: "stop", approval: "stop" }[
              finish.reason as string
            ],
        );
        assertEquals(reading.usage !== undefined, finish.usage !== undefined, "a usage chunk when usage is known");
      }
      assertEquals(choice?.content ?? "", textOf(shown));
      assertEquals(
        (choice?.calls ?? []).map((c) => [c.name, c.arguments]),
        expected.map((c) => [c.name, c.rawArguments]),
      );
      assertCallIds(
        (choice?.calls ?? []).map((c) => c.id),
        expected,
      );
    });

    test(`${label(fixture)}: the non-streaming chat.completion has the same calls, and the chunks read back through the library give them too`, async () => {
      const events = await fixtureEvents(fixture);
      const builder = new OpenAIChatCompletionBuilder({ model: "test-model", created: 1, generateId: countingIds() });
      builder.add(events);
      const result = builder.result();
      if (failed(events)) return assertEquals(result.type, "error");
      assert(result.type === "completion", "a completion");
      const message = result.completion.choices[0]!.message;
      const expected = expectedCalls(events);
      assertEquals(
        (message.tool_calls ?? []).map((c) =>
          c.type === "custom" ? [c.custom.name, c.custom.input] : [c.function.name, c.function.arguments],
        ),
        expected.map((c) => [c.name, c.rawArguments]),
      );
      assertCallIds(
        (message.tool_calls ?? []).map((c) => c.id),
        expected,
      );
      assertEquals(message.content, textOf(events) === "" && expected.length > 0 ? null : textOf(events));
      // The same bytes read by the library's own Chat Completions stage: the parsed calls come back.
      const again = await collect(
        streamToolCalls(fromChunks([bytes(encodeAll(ENCODERS.openai(), events))]), { provider: "openai" }),
      );
      assertEquals(
        expectedCalls(again).map((c) => [c.name, c.arguments ?? c.rawArguments]),
        expected.map((c) => [c.name, c.arguments ?? c.rawArguments]),
      );
    });
  }
});

group("UIMessageEncoder over every recorded stream", (test) => {
  for (const fixture of fixtures) {
    test(`${label(fixture)}: a strict UI message stream reader gets tool parts with the accumulator's inputs`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readUIChunks(encodeAll(ENCODERS.ui(), events));
      const expected = expectedCalls(events);
      assertEquals(reading.messageId, "msg_test");
      assertEquals(reading.steps, 1);
      assertEquals(reading.text, textOf(events));
      const tools = reading.tools.filter((part) => !part.providerExecuted);
      assertEquals(
        tools.map((p) => [p.toolName, p.state, p.state === "input-available" ? p.input : p.input]),
        expected.map((c) => [
          c.name,
          c.invalid ? "output-error" : "input-available",
          c.invalid ? c.rawArguments : c.arguments,
        ]),
      );
      assertCallIds(
        tools.map((p) => p.toolCallId),
        expected,
      );
      const last = events.at(-1)!;
      // The AI SDK's reasons: a paused turn is `other`, one waiting for approvals `tool-calls`.
      const uiReason = (reason: string): string => ({ pause: "other", approval: "tool-calls" })[reason] ?? reason;
      if (last.type === "finish") assertEquals(reading.finishReason, uiReason(last.reason));
      else assertEquals([reading.finishReason, reading.errors.length], ["error", 1]);
      if (failed(events)) assert(reading.errors.length === 1, "one error chunk for a failed response");
    });
  }
});

group("AGUIEncoder over every recorded stream", (test) => {
  for (const fixture of fixtures) {
    test(`${label(fixture)}: a strict AG-UI reader gets an assistant message whose toolCalls are the accumulator's calls`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readAGUIEvents(encodeAll(ENCODERS["ag-ui"](), events));
      const cut = cutByFinish(events);
      const shown = failed(events) ? beforeFailure(events) : events;
      const expected = expectedCalls(shown);
      const assistants = reading.messages.filter((m) => m.role === "assistant");
      assert(assistants.length <= 1, "one assistant message per response");
      const calls = assistants[0]?.toolCalls ?? [];
      assertEquals(
        calls.map((c) => [c.name, c.arguments]),
        expected.map((c) => [c.name, c.rawArguments]),
      );
      assertCallIds(
        calls.map((c) => c.id),
        expected,
      );
      assertEquals(assistants[0]?.content ?? "", textOf(shown));
      if (failed(events)) {
        assert(reading.error && !reading.finished, "RUN_ERROR ends a failed run");
        assertEquals(reading.error["code"], recordedKind(fixture) ?? "provider-error");
      } else if (cut.length > 0) {
        // A call the finish cut never ends (it stays in the message as it streamed): RUN_ERROR, coded by the finish's reason.
        assert(reading.error && !reading.finished, "RUN_ERROR ends a run whose finish cut a call");
        const finish = events.at(-1);
        assertEquals(reading.error["code"], finish?.type === "finish" ? finish.reason : undefined);
      } else assertEquals([reading.finished?.["threadId"], reading.finished?.["runId"]], ["thread_1", "run_1"]);
    });
  }
});
