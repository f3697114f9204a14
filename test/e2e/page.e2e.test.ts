// End to end: `wrangler dev` serves the Worker, headless Chromium opens GET /, sends a prompt
// to the replay upstream and the tool-call cards must render with their final arguments.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const STEP_TIMEOUT = 20_000;
let server: WorkerServer | undefined;
let browser: Browser | undefined;

function chromiumPath(): string {
  return (
    process.env["CHROMIUM_PATH"] ??
    execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim()
  );
}

beforeAll(async () => {
  server = await startWorker({ REPLAY_DELAY_MS: "25" }, 90_000);
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    timeout: STEP_TIMEOUT,
  });
}, 120_000);

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    await stopWorkers(); // also one still starting when beforeAll timed out
  }
}, 30_000);

/** Records every state each card goes through, from the page itself. */
async function recordCardStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, string[]> = {};
    (window as unknown as { cardStates: typeof seen }).cardStates = seen;
    const note = (card: HTMLElement): void => {
      const name = card.querySelector("h4")?.textContent ?? "?";
      const states = (seen[name] ??= []);
      const state = card.dataset["state"] ?? "";
      if (states.at(-1) !== state) states.push(state);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target instanceof HTMLElement ? record.target : record.target.parentElement;
        target?.closest<HTMLElement>(".card") && note(target.closest<HTMLElement>(".card")!);
        for (const node of record.addedNodes) if (node instanceof HTMLElement && node.matches(".card")) note(node);
      }
    }).observe(document.getElementById("calls")!, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["data-state"],
    });
  });
}

describe("GET / in headless Chromium against the replay upstream", () => {
  it("streams the tool calls into cards that end complete with their final arguments", async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(STEP_TIMEOUT);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    await page.goto(server!.url);
    await recordCardStates(page);

    await page.getByLabel("Provider").selectOption("openai");
    await page.getByLabel("Prompt").fill("Is there a Tigers game in Detroit today, and what is the weather there?");
    await page.getByRole("button", { name: "Send" }).click();

    await page.getByRole("status").filter({ hasText: "Finished (tool-calls) with 2 tool call(s)" }).waitFor();
    const cards = page.locator("#calls .card");
    expect(await cards.count()).toBe(2);
    expect(await cards.locator("h4").allTextContents()).toEqual(["search", "weather"]);
    expect(await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]))).toEqual([
      "complete",
      "complete",
    ]);
    expect(await cards.locator(".badge").allTextContents()).toEqual(["complete", "complete"]);
    expect(JSON.parse((await cards.nth(0).locator("pre").textContent()) ?? "")).toEqual({
      query: "Tigers game schedule October 22, 2023",
    });
    expect(JSON.parse((await cards.nth(1).locator("pre").textContent()) ?? "")).toEqual({ city: "Detroit" });
    expect(await cards.nth(0).locator(".call-id").textContent()).toBe("call_DwtqVhx8c5yT7s2OKLb2D5hP");

    // The arguments filled in while they streamed: each card was open before it completed.
    const states = await page.evaluate(
      () => (window as unknown as { cardStates: Record<string, string[]> }).cardStates,
    );
    expect(states).toEqual({ search: ["streaming", "complete"], weather: ["streaming", "complete"] });
    expect(await page.getByRole("button", { name: "Send" }).isEnabled()).toBe(true);
    expect(await page.locator("#answer").getAttribute("aria-busy")).toBe("false");

    mkdirSync(join(root, "docs"), { recursive: true });
    await page.screenshot({ path: join(root, "docs", "screenshot.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("run mode offline: the scripted model calls the Worker's tools, each card shows what the tool returned, and the answer is written from those results", async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(STEP_TIMEOUT);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    const posted: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posted.push(new URL(request.url()).pathname));
    await page.goto(`${server!.url}/?mode=run`);
    await page.getByLabel("Provider").selectOption("anthropic");
    // The page's run prompt: the time in Tokyo, 17% of 230 and a marathon in km.
    expect(await page.getByLabel("Prompt").inputValue()).toBe(
      "What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?",
    );
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("status").filter({ hasText: "Running offline with the Worker's scripted model" }).waitFor();

    await page
      .getByRole("status")
      .filter({ hasText: /Run finished \(no-tool-calls\) after 2 step\(s\)/ })
      .waitFor();
    expect(posted).toEqual(["/v1/run"]);
    const cards = page.locator("#calls .card");
    expect(await cards.locator("h4").allTextContents()).toEqual(["current_time", "calculate", "convert_units"]);
    expect(await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]))).toEqual([
      "complete",
      "complete",
      "complete",
    ]);
    expect(await cards.locator(".outcome.error").count()).toBe(0);
    expect(await cards.locator(".outcome.result h5").allTextContents()).toEqual(["Result", "Result", "Result"]);
    const results = (await cards.locator(".outcome.result pre").allTextContents()).map(
      (text) => JSON.parse(text) as Record<string, unknown>,
    );
    expect(results[0]).toMatchObject({ time_zone: "Asia/Tokyo", utc_offset: "+09:00" });
    expect(results.slice(1)).toEqual([{ result: 39.1 }, { value: 42.1648128, unit: "km", category: "length" }]);
    const time = results[0] as { time: string; weekday: string; date: string };
    expect(((await page.locator("#text").textContent()) ?? "").trim()).toBe(
      `In Asia/Tokyo it is ${time.time.slice(0, 5)} on ${time.weekday}, ${time.date} (UTC+09:00). 230 * 17 / 100 = 39.1. 26.2 mi is 42.1648128 km.`,
    );
    await page.screenshot({ path: join(root, "docs", "screenshot-run.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("run mode shows a tool that streams its result: the unit_table card's result grows row by row, then is final", async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(STEP_TIMEOUT);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`${server!.url}/?mode=run`);
    // Every version of the result section, as the page shows it: its state and its row count.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { outcomes: string[] }).outcomes = seen;
      new MutationObserver(() => {
        const outcome = document.querySelector<HTMLElement>("#calls .outcome.result");
        const text = outcome?.querySelector("pre")?.textContent;
        if (!outcome || !text) return;
        const version = `${outcome.dataset["state"]}:${(JSON.parse(text) as { rows: unknown[] }).rows.length}`;
        if (seen.at(-1) !== version) seen.push(version);
      }).observe(document.getElementById("calls")!, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel("Provider").selectOption("openai");
    await page.getByLabel("Prompt").fill("Make me a table of km to mi for 1, 5, 10, 21.0975 and 42.195.");
    await page.getByRole("button", { name: "Send" }).click();

    await page
      .getByRole("status")
      .filter({ hasText: /Run finished \(no-tool-calls\) after 2 step\(s\)/ })
      .waitFor();
    const card = page.locator("#calls .card");
    expect(await card.locator("h4").allTextContents()).toEqual(["unit_table"]);
    expect(await card.locator(".outcome.result h5").textContent()).toBe("Result");
    expect(await page.evaluate(() => (window as unknown as { outcomes: string[] }).outcomes)).toEqual([
      "growing:1",
      "growing:2",
      "growing:3",
      "growing:4",
      "growing:5",
      "final:5",
    ]);
    expect((await page.locator("#answer").textContent()) ?? "").toContain("42.195 km is 26.2187574565 mi");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("with early validation, a card turns invalid the moment its arguments can no longer match, while they stream on", async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(server!.url);
    // Each card's states, with its arguments as they were shown at that moment.
    await page.evaluate(() => {
      const seen: Record<string, [string, string][]> = {};
      (window as unknown as { cardStates: typeof seen }).cardStates = seen;
      new MutationObserver(() => {
        for (const card of document.querySelectorAll<HTMLElement>("#calls .card")) {
          const states = (seen[card.querySelector("h4")?.textContent ?? "?"] ??= []);
          const state = card.dataset["state"] ?? "";
          if (states.at(-1)?.[0] !== state) states.push([state, card.querySelector("pre")?.textContent ?? ""]);
        }
      }).observe(document.getElementById("calls")!, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ["data-state"],
      });
    });
    await page.getByLabel("Provider").selectOption("openai");
    await page
      .getByLabel("Prompt")
      .fill(
        "replay chat-parallel-tool-calls-two-functions: is there a Tigers game in Detroit today, and what is the weather there?",
      );
    await page.getByText("Tools sent with the prompt").click();
    const tools = [
      {
        name: "search",
        parameters: { type: "object", properties: { query: { type: "string", maxLength: 12 } }, required: ["query"] },
      },
      {
        name: "weather",
        parameters: {
          type: "object",
          properties: { city: { type: "string", enum: ["Paris", "London"] } },
          required: ["city"],
        },
      },
    ];
    await page.getByLabel("Tool definitions").fill(JSON.stringify(tools));
    await page.getByLabel(/early_validation/).check();
    await page.getByRole("button", { name: "Send" }).click();

    await page.getByRole("status").filter({ hasText: "Finished (tool-calls) with 2 tool call(s)" }).waitFor();
    const states = await page.evaluate(
      () => (window as unknown as { cardStates: Record<string, [string, string][]> }).cardStates,
    );
    // Invalid at the fragment that made the query 13 characters and the city start with D, not at the end.
    expect(states).toEqual({
      search: [
        ["streaming", ""],
        ["invalid", '{"query": "Tigers game s'],
      ],
      weather: [
        ["streaming", ""],
        ["invalid", '{"city": "Detro'],
      ],
    });
    const notes = await page.locator("#calls .card .note").allTextContents();
    expect(notes[0]).toMatch(/^Can no longer match the tool's schema, at \/query: Expected at most 12 characters\. /);
    expect(notes[1]).toMatch(/^Can no longer match the tool's schema, at \/city: Expected one of "Paris", "London"\. /);
    expect(await page.locator("#calls .card pre").first().textContent()).toBe(
      '{"query": "Tigers game schedule October 22, 2023"}',
    );
    await page.screenshot({ path: join(root, "docs", "screenshot-violation.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("with abort_on_violation too, the stream stops at the violation and the card stays invalid", async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    await page.goto(server!.url);
    await page.getByLabel("Provider").selectOption("openai");
    await page.getByText("Tools sent with the prompt").click();
    await page
      .getByLabel("Tool definitions")
      .fill(
        JSON.stringify([
          { name: "search", parameters: { type: "object", properties: { query: { type: "string", maxLength: 12 } } } },
        ]),
      );
    // The recording whose first call's query passes 12 characters, asked for by name: offline, the
    // scripted model would call the declared tool with a query valid against its schema.
    await page
      .getByLabel("Prompt")
      .fill("replay chat-parallel-tool-calls-two-functions: is there a Tigers game in Detroit today?");
    await page.getByLabel(/abort_on_violation/).check();
    expect(await page.getByLabel(/early_validation/).isChecked()).toBe(true);
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("status").filter({ hasText: "Stopped (schema-violation)" }).waitFor();
    const cards = page.locator("#calls .card");
    expect(await cards.locator("h4").allTextContents()).toEqual(["search"]);
    expect(await cards.first().getAttribute("data-state")).toBe("invalid");
    expect(await cards.first().locator("pre").textContent()).toBe('{"query": "Tigers game s');
    expect(await cards.first().locator(".note").textContent()).toMatch(/The stream was stopped there\.$/);
    await page.close();
  });

  it("Stop cancels the stream and marks the calls still open as discarded", async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    await page.goto(server!.url);
    await page.getByLabel("Provider").selectOption("openai");
    // The page presses Stop itself the moment a card starts streaming: polling from the test
    // could miss that moment on a loaded machine, when the replay finishes first.
    await page.evaluate(() => {
      const calls = document.getElementById("calls")!;
      const observer = new MutationObserver(() => {
        if (!calls.querySelector('.card[data-state="streaming"]')) return;
        observer.disconnect();
        document.getElementById("stop")!.click();
      });
      observer.observe(calls, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
    });
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("status").filter({ hasText: "Stopped" }).waitFor();
    const states = await page
      .locator("#calls .card")
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]));
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(["discarded"]));
    await page.close();
  });
});
