// The early usage event on every recording: a provider's first usage report becomes one `usage`
// event, as soon as it comes and before the finish, with the counts the provider sent (never
// zeros in their place). Anthropic reports the input tokens in message_start and Gemini on its
// first chunk, so there the event comes before any content; the others report at the end.
import type { ToolCallEvent } from "../../src/index.ts";
import { fixtureEvents } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, type Fixture } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);

/** The input count of the provider's first report, read from the recording's text. */
function firstReportedInput(fixture: Fixture): number | undefined {
  const protocol = supportedProvider(fixture);
  if (protocol === "anthropic") {
    const start = /"message_start".*?"input_tokens":\s*(\d+)/.exec(fixture.text);
    return start ? Number(start[1]) : undefined;
  }
  if (protocol === "gemini") {
    // Only when the first message carries it: a first chunk without counts says nothing early.
    const first = fixture.text.split(fixture.format === "json-array" ? /\}\s*,\s*\{\s*"candidates"/ : /\r?\n\r?\n/)[0];
    const count = /"promptTokenCount":\s*(\d+)/.exec(first ?? "");
    return count ? Number(count[1]) : undefined;
  }
  return undefined;
}

const indexOf = (events: readonly ToolCallEvent[], type: ToolCallEvent["type"]): number =>
  events.findIndex((event) => event.type === type);

group("The early usage event over every recording", (test) => {
  for (const fixture of fixtures) {
    test(`${fixture.provider}/${fixture.name}: at most one usage event, before the finish, with the provider's counts`, async () => {
      const events = await fixtureEvents(fixture);
      const usages = events.filter((event) => event.type === "usage");
      assert(usages.length <= 1, `one usage event at most (${usages.length})`);
      const at = indexOf(events, "usage");
      const end = events.findIndex((event) => event.type === "finish" || event.type === "abort");
      if (at >= 0) assert(at < end, "the usage event comes before the finish");
      const finish = events.at(-1);
      if (finish?.type === "finish" && finish.usage) assert(at >= 0, "a response with usage has its usage event");
      const input = firstReportedInput(fixture);
      if (input === undefined) return;
      const usage = usages[0];
      assertEquals(at, 0, "reported before any content: the first event");
      assert(usage?.type === "usage", "a usage event");
      const cached = (usage.usage.cacheReadTokens ?? 0) + (usage.usage.cacheWriteTokens ?? 0);
      const apart = supportedProvider(fixture) === "anthropic" ? cached : 0;
      assertEquals(usage.usage.inputTokens, input + apart, "the input tokens the provider reported");
    });
  }
  // The check of the counts runs on the recordings whose provider reports input first: every
  // Anthropic one does (message_start), so none may skip it.
  const anthropic = fixtures.filter((fixture) => supportedProvider(fixture) === "anthropic");
  if (anthropic.length > 0)
    test("every Anthropic recording reports its input first, so the counts above are checked on each", () => {
      const late = anthropic.filter((fixture) => firstReportedInput(fixture) === undefined).map((f) => f.name);
      assertEquals(late, [], "Anthropic recordings without input_tokens in message_start");
    });
});
