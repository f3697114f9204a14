// A data: URL's header is read in time linear in its length: a run of spaces inside it (not at
// its ends) must not make the trim scan it again from every space (review 73, HIGH on 1dc99b4b:
// /[\t\n\f\r ]+$/g backtracks over the whole run from each of its spaces: 60,000 spaces cost about
// 3.4 s of CPU in Node 20 and 2.3 s in workerd, 250,000 about 38 s a case, before the 127-character
// media type limit is looked at).
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

// 250,000: the quadratic trim took ~40 s a case on a free core (60,000 took ~2.5 s, under vitest's
// 5 s timeout when the machine is idle, so the test could not catch it); the linear one answers at once.
const SPACES = 250_000;

const env = testEnv({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });

const send = async (url: string) => {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const client = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
  const error = await client.chat.completions
    .create({
      model: "anthropic/claude-x",
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url } }] }],
    })
    .catch((caught: unknown) => caught);
  return { upstream, error };
};

describe("a data: URL header of many inner spaces", () => {
  for (const [name, header] of [
    ["inside the media type", `image/png${" ".repeat(SPACES)}x;base64`],
    ["before the ;", `image/png${" ".repeat(SPACES)}x ;base64`],
  ] as const)
    it(`${name}: a 400 naming the part, without a scan per space`, async () => {
      const { upstream, error } = await send(`data:${header},iVBORw0KGgo=`);
      expect(upstream.requests).toHaveLength(0);
      expect(error).toMatchObject({ status: 400 });
      expect(String((error as Error).message)).toContain("messages[0].content[0].image_url.url");
    });
});
