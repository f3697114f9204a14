// End to end: `wrangler dev` serves the Worker, headless Chromium opens GET /, sends a prompt
// to the replay upstream and the tool-call cards must render with their final arguments.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, type WorkerServer } from "./worker-server.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const STEP_TIMEOUT = 20_000;
let server: WorkerServer | undefined;
let browser: Browser | undefined;

function chromiumPath(): string {
  return process.env["CHROMIUM_PATH"] ?? execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
}

beforeAll(async () => {
  server = await startWorker({ REPLAY_DELAY_MS: "25" }, 90_000);
  browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    timeout: STEP_TIMEOUT,
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
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
    }).observe(document.getElementById("calls")!, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-state"] });
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
    expect(await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]))).toEqual(["complete", "complete"]);
    expect(await cards.locator(".badge").allTextContents()).toEqual(["complete", "complete"]);
    expect(JSON.parse((await cards.nth(0).locator("pre").textContent()) ?? "")).toEqual({ query: "Tigers game schedule October 22, 2023" });
    expect(JSON.parse((await cards.nth(1).locator("pre").textContent()) ?? "")).toEqual({ city: "Detroit" });
    expect(await cards.nth(0).locator(".call-id").textContent()).toBe("call_DwtqVhx8c5yT7s2OKLb2D5hP");

    // The arguments filled in while they streamed: each card was open before it completed.
    const states = await page.evaluate(() => (window as unknown as { cardStates: Record<string, string[]> }).cardStates);
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
    expect(await page.getByLabel("Prompt").inputValue()).toBe("What time is it in Tokyo, what is 17% of 230, and how many km is a marathon (26.2 mi)?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("status").filter({ hasText: "Running offline with the Worker's scripted model" }).waitFor();

    await page.getByRole("status").filter({ hasText: /Run finished \(no-tool-calls\) after 2 step\(s\)/ }).waitFor();
    expect(posted).toEqual(["/v1/run"]);
    const cards = page.locator("#calls .card");
    expect(await cards.locator("h4").allTextContents()).toEqual(["current_time", "calculate", "convert_units"]);
    expect(await cards.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]))).toEqual(["complete", "complete", "complete"]);
    expect(await cards.locator(".outcome.error").count()).toBe(0);
    expect(await cards.locator(".outcome.result h5").allTextContents()).toEqual(["Result", "Result", "Result"]);
    const results = (await cards.locator(".outcome.result pre").allTextContents()).map((text) => JSON.parse(text) as Record<string, unknown>);
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

  it("Stop cancels the stream and marks the calls still open as discarded", async () => {
    const page = await browser!.newPage();
    page.setDefaultTimeout(STEP_TIMEOUT);
    await page.goto(server!.url);
    await page.getByLabel("Provider").selectOption("openai");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator('#calls .card[data-state="streaming"]').first().waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await page.getByRole("status").filter({ hasText: "Stopped" }).waitFor();
    const states = await page.locator("#calls .card").evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]));
    expect(states.length).toBeGreaterThan(0);
    expect(new Set(states)).toEqual(new Set(["discarded"]));
    await page.close();
  });
});
