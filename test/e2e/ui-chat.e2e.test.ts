// End to end: the AI SDK's chat class (`AbstractChat` of `ai`, what `useChat` wraps) with its
// `DefaultChatTransport`, in a page in headless Chromium (Debian's), against the Worker under
// `wrangler dev` (POST /v1/ui, offline: the replay, and in run mode the scripted model). The page
// is bundled here with esbuild and served on the Worker's own origin by Playwright's routing.
// Saves docs/screenshot-ui-chat.png.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..", "..");
const STEP_TIMEOUT = 20_000;
let server: WorkerServer | undefined;
let browser: Browser | undefined;
let script = "";

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(here, "ui-chat", "chat-page.ts")],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "warning",
  });
  script = bundle.outputFiles[0]!.text;
  server = await startWorker({ REPLAY_DELAY_MS: "10" }, 90_000);
  const executablePath =
    process.env["CHROMIUM_PATH"] ??
    execFileSync("sh", ["-c", "command -v chromium || command -v chromium-browser"], { encoding: "utf8" }).trim();
  browser = await chromium.launch({
    executablePath,
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
}, 150_000);

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    await stopWorkers(); // also one still starting when beforeAll timed out
  }
}, 30_000);

/** A page of the chat, served on the Worker's origin; everything else goes to the Worker. */
async function openChat(query: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser!.newPage({ viewport: { width: 900, height: 1000 } });
  page.setDefaultTimeout(STEP_TIMEOUT);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  await page.route(`${server!.url}/__e2e/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === "/__e2e/chat-page.js") return route.fulfill({ contentType: "text/javascript", body: script });
    return route.fulfill({
      contentType: "text/html",
      body: readFileSync(join(here, "ui-chat", "chat-page.html"), "utf8"),
    });
  });
  await page.goto(`${server!.url}/__e2e/chat.html?${query}`);
  await page.locator('#status[data-status="ready"]').waitFor();
  return { page, problems };
}

describe("the AI SDK's chat class in headless Chromium against POST /v1/ui", () => {
  it("run mode: the Worker runs current_time, calculate and convert_units; the page shows each call with its output, then the answer", async () => {
    const { page, problems } = await openChat("model=anthropic/claude-sonnet-4-5&run=1");
    const posted: string[] = [];
    page.on("request", (request) => request.method() === "POST" && posted.push(new URL(request.url()).pathname));
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.assistant .text").waitFor();
    await page.locator('#status[data-status="ready"]').waitFor();
    expect(posted).toEqual(["/v1/ui"]);
    const tools = page.locator(".message.assistant .tool");
    expect(await tools.locator("h3").allTextContents()).toEqual(["current_time", "calculate", "convert_units"]);
    expect(await tools.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset["state"]))).toEqual([
      "output-available",
      "output-available",
      "output-available",
    ]);
    expect(await tools.locator("pre.input").allTextContents()).toEqual([
      `input: ${JSON.stringify({ time_zone: "Asia/Tokyo" }, null, 2)}`,
      `input: ${JSON.stringify({ expression: "230 * 17 / 100" }, null, 2)}`,
      `input: ${JSON.stringify({ value: 26.2, from: "mi", to: "km" }, null, 2)}`,
    ]);
    expect(await tools.nth(1).locator("pre.output").textContent()).toBe(
      `output: ${JSON.stringify({ result: 39.1 }, null, 2)}`,
    );
    const time = JSON.parse(
      ((await tools.nth(0).locator("pre.output").textContent()) ?? "").slice("output: ".length),
    ) as { time_zone: string; time: string; date: string };
    expect(time.time_zone).toBe("Asia/Tokyo");
    const answer = (await page.locator(".message.assistant .text").allTextContents()).join(" ");
    expect(answer).toBe(
      `In Asia/Tokyo it is ${time.time.slice(0, 5)} on ${(time as unknown as { weekday: string }).weekday}, ${time.date} (UTC+09:00). 230 * 17 / 100 = 39.1. 26.2 mi is 42.1648128 km.`,
    );
    mkdirSync(join(root, "docs"), { recursive: true });
    await page.screenshot({ path: join(root, "docs", "screenshot-ui-chat.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("one model call (gemini replay): the call arrives as a tool part in state input-available with its input", async () => {
    const { page, problems } = await openChat("model=gemini/gemini-2.5-flash");
    // The recording asked for by name (the page declares its tool, get_capital: declared tools are a
    // contract, so a call to any other is an error); without it the scripted model calls the app's tools.
    await page.getByLabel("Prompt").fill("replay function-call-gemini-2.0-flash: what is the capital of France?");
    await page.getByRole("button", { name: "Send" }).click();
    await page.locator(".message.assistant .tool").waitFor();
    await page.locator('#status[data-status="ready"]').waitFor();
    const tool = page.locator(".message.assistant .tool");
    expect(await tool.locator("h3").allTextContents()).toEqual(["get_capital"]);
    expect(await tool.getAttribute("data-state")).toBe("input-available");
    expect(await tool.locator("pre.input").textContent()).toBe(
      `input: ${JSON.stringify({ country: "France" }, null, 2)}`,
    );
    expect(await tool.locator("code").textContent()).toMatch(/^call_/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
