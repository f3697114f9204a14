// The scripted model's values for the two ends of a move and for languages, and for prompts in
// scripts without spaces (worker/upstream/replay/scripted/arguments/directions.ts): each value
// goes to the property the prompt's words point it to ("from X", "to Y", "between X and Y",
// "into German"), one value of the prompt fills one property while others are there, and a short
// field (a city, a language) never takes the whole sentence. Each case failed before.
import { describe, expect, it } from "vitest";
import { checkToolArguments, type ToolSchema } from "../../src/index.ts";
import {
  type OfferedTool,
  planCalls,
  type ScriptedToolChoice,
} from "../../worker/upstream/replay/scripted/tool-plan.ts";

const NOW = Date.UTC(2026, 11, 2, 9, 30);
const object = (properties: object) => ({ type: "object", properties, required: Object.keys(properties) });
const text = { type: "string" };

/** The calls for a prompt, each checked against its tool's schema. */
function plan(prompt: string, tools: { name: string; parameters: object }[], choice?: ScriptedToolChoice) {
  const calls = planCalls(prompt, tools as OfferedTool[], choice ?? { type: "auto" }, NOW);
  for (const call of calls) {
    const schema = tools.find((t) => t.name === call.name)!.parameters as ToolSchema;
    expect(checkToolArguments(call.arguments, schema, { assertFormats: true }), JSON.stringify(call)).toEqual([]);
  }
  return calls.map((call) => call.arguments);
}

describe("the two ends of a move", () => {
  const trip = { name: "plan_trip", parameters: object({ from: text, to: text }) };
  const directions = { name: "get_directions", parameters: object({ origin: text, destination: text }) };
  const required: ScriptedToolChoice = { type: "required" };

  it("gives `from`/`origin` the value after from and `to`/`destination` the one after to, in either order", () => {
    expect(plan("Plan a trip from Paris to Berlin", [trip])).toEqual([{ from: "Paris", to: "Berlin" }]);
    expect(plan("Plan a trip to Berlin from Paris", [trip])).toEqual([{ from: "Paris", to: "Berlin" }]);
    expect(plan("Get me directions to Berlin from Paris", [directions])).toEqual([
      { origin: "Paris", destination: "Berlin" },
    ]);
    expect(plan("How far is it between Paris and Berlin?", [trip], required)).toEqual([
      { from: "Paris", to: "Berlin" },
    ]);
    expect(plan("Reise von München nach Wien planen", [trip], required)).toEqual([{ from: "München", to: "Wien" }]);
  });

  it("never fills both ends with one value of the prompt", () => {
    const [args] = plan("Plan a trip to Berlin", [trip]);
    expect(args).toMatchObject({ to: "Berlin" });
    expect(args!["from"]).not.toBe("Berlin");
  });

  it("reads the ends of dates, currencies (an enum) and a source and target language", () => {
    const range = {
      name: "list_events",
      parameters: object({
        start_date: { type: "string", format: "date" },
        end_date: { type: "string", format: "date" },
      }),
    };
    expect(plan("List events until 2026-12-24 from 2026-12-01", [range])).toEqual([
      { start_date: "2026-12-01", end_date: "2026-12-24" },
    ]);
    const currency = { enum: ["USD", "EUR", "GBP"] };
    const convert = {
      name: "convert_currency",
      parameters: object({ amount: { type: "number" }, from_currency: currency, to_currency: currency }),
    };
    expect(plan("Convert 100 to USD from EUR", [convert])).toEqual([
      { amount: 100, from_currency: "EUR", to_currency: "USD" },
    ]);
  });
});

describe("languages", () => {
  it("takes the language the prompt translates into, as a code or an enum's option", () => {
    const codes = { type: "string", enum: ["en", "de", "fr", "it", "ja"] };
    const translate = { name: "translate", parameters: object({ text, target_lang: codes }) };
    expect(plan("Translate 'good morning' into German", [translate])).toEqual([
      { text: "good morning", target_lang: "de" },
    ]);
    // "it" is a word, not Italian.
    expect(plan("Translate 'it is raining' into Japanese", [translate])).toEqual([
      { text: "it is raining", target_lang: "ja" },
    ]);
    const free = { name: "translate", parameters: object({ text, target_lang: text }) };
    expect(plan("Translate 'good morning' into German", [free])).toEqual([{ text: "good morning", target_lang: "de" }]);
    const deepl = { type: "string", enum: ["EN-US", "DE", "FR"] };
    const both = { name: "translate", parameters: object({ text, source_lang: deepl, target_lang: deepl }) };
    expect(plan("Translate 'Guten Morgen' from German to English", [both])).toEqual([
      { text: "Guten Morgen", source_lang: "DE", target_lang: "EN-US" },
    ]);
  });
});

describe("prompts in scripts without spaces or case", () => {
  const weather = (city: object) => ({ name: "get_weather", parameters: object({ city }) });

  it("take the name a particle follows, never the whole sentence", () => {
    expect(plan("東京の天気は？", [weather(text)])).toEqual([{ city: "東京" }]);
    expect(plan("今日の大阪の天気を教えてください", [weather(text)])).toEqual([{ city: "大阪" }]);
    expect(plan("北京的天气怎么样？", [weather(text)])).toEqual([{ city: "北京" }]);
    expect(plan("서울의 날씨는 어때요?", [weather(text)])).toEqual([{ city: "서울" }]);
  });

  it("else the schema's example, enum or default, never the sentence", () => {
    const required: ScriptedToolChoice = { type: "required" };
    expect(plan("天気はどうですか", [weather({ type: "string", examples: ["Tokyo"] })], required)).toEqual([
      { city: "Tokyo" },
    ]);
    expect(plan("天気はどうですか", [weather({ enum: ["Osaka", "Kyoto"] })], required)).toEqual([{ city: "Osaka" }]);
    expect(plan("天気はどうですか", [weather({ type: "string", default: "Nagoya" })], required)).toEqual([
      { city: "Nagoya" },
    ]);
    const [args] = plan("ما هو الطقس اليوم", [weather(text)], required);
    expect(args!["city"]).not.toContain("الطقس");
  });
});
