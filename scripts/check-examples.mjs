// Runs the examples (issue 8) and checks what each printed against the recording's
// `.expected.json`: the text, every completed call's name and arguments in order, and a final
// `finish` with that many calls. Needs `npm run build` first (node and browser use dist/).
//   node    `node examples/node.mjs` (imports `tool-call-stream/openai` through the package's exports)
//   deno    `deno run --allow-read examples/deno.ts`
//   browser examples/browser.html served over HTTP and loaded in headless Chromium (Debian's
//           chromium through playwright-core, as the browser test project does)
//   readme  `node examples/print-events.ts` prints exactly the output README.md shows for it
// Usage: node scripts/check-examples.mjs [node] [deno] [browser] [readme]   (all by default)
import { execFileSync, execSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const expected = (name) =>
  JSON.parse(readFileSync(join(root, "examples", "recordings", `${name}.expected.json`), "utf8"));

/** Compares the events an example printed (as JSON values) with a recording's expected outcome. */
function verify(events, want) {
  const problems = [];
  const text = events
    .filter((e) => e.type === "text-delta")
    .map((e) => e.text)
    .join("");
  if (text !== want.text) problems.push(`text ${JSON.stringify(text)} instead of ${JSON.stringify(want.text)}`);
  const calls = events.filter((e) => e.type === "tool-call").map((e) => ({ name: e.name, arguments: e.arguments }));
  const wantCalls = want.toolCalls.map((c) => ({ name: c.name, arguments: c.arguments }));
  if (JSON.stringify(calls) !== JSON.stringify(wantCalls))
    problems.push(`calls ${JSON.stringify(calls)} instead of ${JSON.stringify(wantCalls)}`);
  const last = events.at(-1);
  if (last?.type !== "finish" || last.calls !== wantCalls.length)
    problems.push(`last event ${JSON.stringify(last)} is not a finish with ${wantCalls.length} call(s)`);
  return problems;
}

const parseLines = (output) =>
  output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

const checks = {
  readme() {
    const output = execFileSync(process.execPath, [join(root, "examples", "print-events.ts")], {
      cwd: root,
      encoding: "utf8",
    });
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const shown = /prints \(from `examples\/print-events\.ts`[^\n]*\n\n```\n([\s\S]*?)```/.exec(readme)?.[1];
    if (shown === undefined) return ['README.md has no output block after "prints (from `examples/print-events.ts`"'];
    return shown === output ? [] : [`README.md shows\n${shown}but examples/print-events.ts prints\n${output}`];
  },
  node() {
    const output = execFileSync(process.execPath, [join(root, "examples", "node.mjs")], {
      cwd: root,
      encoding: "utf8",
    });
    return verify(parseLines(output), expected("openai-chat-parallel-tool-calls"));
  },
  deno() {
    const env = {
      ...process.env,
      NO_COLOR: "1",
      DENO_DIR: process.env.DENO_DIR ?? join(root, "node_modules", ".cache", "deno"),
    };
    const deno = join(root, "node_modules", ".bin", "deno");
    const output = execFileSync(deno, ["run", "--allow-read", join(root, "examples", "deno.ts")], {
      cwd: root,
      encoding: "utf8",
      env,
    });
    return verify(parseLines(output), expected("anthropic-text-then-tool-use"));
  },
  async browser() {
    const { chromium } = await import("playwright-core");
    const server = await serveStatic(["examples", "dist", join("node_modules", "eventsource-parser")]);
    let executablePath;
    try {
      executablePath = execSync("command -v chromium", { encoding: "utf8" }).trim() || undefined;
    } catch {
      executablePath = undefined; // playwright then reports that it finds no browser
    }
    const browser = await chromium.launch({
      headless: true,
      ...(executablePath ? { executablePath } : {}),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    });
    try {
      const page = await browser.newPage();
      const pageErrors = [];
      page.on("pageerror", (error) => pageErrors.push(error.message));
      await page.goto(`${server.url}/examples/browser.html`);
      await page.waitForSelector("body[data-state]", { timeout: 30_000 });
      const state = await page.getAttribute("body", "data-state");
      const events = (await page.locator("#events li").allTextContents()).map((line) => JSON.parse(line));
      const problems = verify(events, expected("gemini-parallel-function-calls"));
      if (state !== "done") problems.unshift(`the page ended in state ${state}`);
      for (const message of pageErrors) problems.unshift(`page error: ${message}`);
      return problems;
    } finally {
      await browser.close();
      server.close();
    }
  },
};

/** Serves the given folders of the repository on 127.0.0.1, and nothing else. */
function serveStatic(folders) {
  const types = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".sse": "text/event-stream",
    ".json": "application/json",
    ".map": "application/json",
  };
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url, "http://localhost").pathname)).slice(1);
    const allowed = folders.some((folder) => path.startsWith(folder + sep)) && !path.split(sep).includes("..");
    let body;
    try {
      if (allowed && statSync(join(root, path)).isFile()) body = readFileSync(join(root, path));
    } catch {
      body = undefined; // answered 404 below
    }
    if (!body) return response.writeHead(404).end();
    response.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" }).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }),
    );
  });
}

const selected = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(checks);
let failed = 0;
for (const name of selected) {
  if (!(name in checks)) {
    console.error(`!! examples: no example named ${name}`);
    failed++;
    continue;
  }
  let problems;
  try {
    problems = await checks[name]();
  } catch (error) {
    problems = [`it failed to run: ${error instanceof Error ? error.message : String(error)}`];
  }
  if (problems.length === 0) console.log(`examples: ${name} ok`);
  else {
    failed++;
    for (const problem of problems) console.error(`!! examples: ${name}: ${problem}`);
  }
}
process.exit(failed > 0 ? 1 : 0);
