// Runs the examples (issue 8) and checks what each printed against the recording's
// `.expected.json`: the text, every completed call's name and arguments in order, and a final
// `finish` with that many calls. Needs `npm run build` first (node and browser use dist/).
//   node    `node examples/node.mjs` (imports `tool-call-stream/openai` through the package's exports)
//   deno    `deno run --allow-read examples/deno.ts`
//   browser examples/browser.html served over HTTP and loaded in headless Chromium (Debian's
//           chromium through playwright-core, as the browser test project does), without
//           ReadableStream's async iterator, which Safari lacks
//   readme  `node examples/print-events.ts` prints exactly the output README.md shows for it
//   worker  examples/worker.ts (the README's Worker) with `fetch` replaced by a recording: it
//           streams the recording's events, passes a provider's error on with its status (and
//           retry-after), and answers 400 for a GET, an empty, a malformed or a non-object body
//   docs    every code block of README.md, docs/*.md and worker/README.md marked
//           `<!-- example: examples/NAME -->` is that file, byte for byte, and every block marked
//           `<!-- output: examples/NAME -->` is what the file prints (under the Node 24 of the dev
//           dependencies, which runs TypeScript), its requests to http://localhost:8787 answered
//           by the Worker's own Chat Completions endpoint offline, as `npm start` serves it (the
//           scripted model calls the request's tools); and no shell block of those files or of
//           CONTRIBUTING.md runs a `.ts` file with a bare `node`, which is the system's (Node 20
//           cannot run TypeScript): `./node_modules/.bin/node`, the dev dependencies' Node 24
//   run     every block of README.md marked `<!-- run: node -->` or `<!-- run: deno -->` runs offline
//           against the Worker's own handler (no provider key, as `npm start` serves it) on
//           127.0.0.1 (its page's bundle built first, as `npm start` builds it), and prints
//           `finish tool-calls` last (the scripted model calls the request's tool): a node block
//           under the Node 24 of the dev dependencies, from a folder of the repository
//           (`tool-call-stream` is dist/), with its calls to api.openai.com and api.anthropic.com
//           sent to that Worker and the names it leaves to the reader (`key`, `messages`, `input`,
//           `tools`) given; a deno block as it stands, its `*_BASE_URL` that Worker
//           and its `jsr:` import the repository's sources (`--config deno.json`)
//   snippets the other TypeScript blocks of README.md, worker/README.md and docs/*.md that import the package (in
//           docs/, also the blocks after one, with its imports: a handler shown piece by piece)
//           type-check against the source (strict, with the free names they leave to the reader
//           declared: `messages`, `tools`, the SDKs' clients, ...), so a renamed export or option
//           cannot leave them behind
// Usage: node scripts/check-examples.mjs [node] [deno] [browser] [readme] [worker] [docs] [run] [snippets]   (all by default)
import { execFileSync, execSync, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:http";
import { dirname, extname, join, normalize, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { onDemandBin } from "./on-demand.mjs";

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

/** The Node 24 of the dev dependencies, which runs the TypeScript examples (the system's may be older). */
const node24 = join(root, "node_modules", ".bin", "node");

/** Runs examples/worker.ts's handler against a replaced `fetch`; prints what it answered as JSON. */
const WORKER_HARNESS = `
import { readFileSync } from "node:fs";
import { SSEDecoderStream, ToolCallEventDecoderStream } from "tool-call-stream/core";
const { default: worker } = await import("./examples/worker.ts");
const recording = readFileSync("examples/recordings/anthropic-text-then-tool-use.sse");
let upstream;
const sent = [];
globalThis.fetch = async (url, init) => (sent.push({ url: String(url), headers: init.headers, body: init.body }), upstream());
const env = { ANTHROPIC_API_KEY: "sk-test" };
const call = (init) => worker.fetch(new Request("http://127.0.0.1/", init), env);
const post = (body) => call({ method: "POST", body });
const request = JSON.stringify({ model: "claude-sonnet-4-6", max_tokens: 256, messages: [{ role: "user", content: "Hi" }] });
const out = {};
upstream = () => new Response(recording, { headers: { "content-type": "text/event-stream" } });
const ok = await post(request);
const events = [];
for await (const event of ok.body.pipeThrough(new SSEDecoderStream()).pipeThrough(new ToolCallEventDecoderStream())) events.push(event);
out.stream = { status: ok.status, type: ok.headers.get("content-type"), events, sent: sent.at(-1) };
const providerError = { type: "error", error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit." } };
upstream = () => Response.json(providerError, { status: 429, headers: { "retry-after": "7" } });
const limited = await post(request);
out.limited = { status: limited.status, retryAfter: limited.headers.get("retry-after"), body: await limited.text(), expected: JSON.stringify(providerError) };
upstream = () => Response.json({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }, { status: 401 });
out.unauthorized = { status: (await post(request)).status };
const before = sent.length;
out.bad = [];
for (const init of [{ method: "GET" }, { method: "POST" }, { method: "POST", body: "{" }, { method: "POST", body: "[]" }, { method: "POST", body: "null" }])
  out.bad.push((await call(init)).status);
out.badReachedUpstream = sent.length - before;
console.log(JSON.stringify(out));
`;

/**
 * Runs an example (its path the first argument) with its requests to the local Worker
 * (`http://localhost:8787`, where `npm start` serves it) answered in this process by the Worker's
 * Chat Completions route, offline (no provider key, the open localhost mode `npm start` runs in);
 * any other request is the network's.
 */
const OFFLINE_WORKER_HARNESS = `
import { pathToFileURL } from "node:url";
const { chatCompletionsRoute } = await import(${JSON.stringify(pathToFileURL(join(root, "worker", "protocols", "openai-chat", "route.ts")).href)});
const { platformRuntime } = await import(${JSON.stringify(pathToFileURL(join(root, "worker", "runtime.ts")).href)});
const network = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const request = new Request(input, init);
  const url = new URL(request.url);
  if (url.origin !== "http://localhost:8787") return network(request);
  if (url.pathname !== "/v1/chat/completions") return new Response("not served here", { status: 404 });
  return chatCompletionsRoute(request, { OPEN_ACCESS: "true" }, platformRuntime);
};
await import(pathToFileURL(process.argv[1]).href);
`;

/**
 * The Worker's fetch handler served on 127.0.0.1 (a free port, which it prints), offline: no
 * provider key, the open localhost mode `npm start` runs in, so its scripted model answers.
 */
const OFFLINE_WORKER_SERVER = `
import { createServer } from "node:http";
const { createFetchHandler } = await import(${JSON.stringify(pathToFileURL(join(root, "worker", "app.ts")).href)});
const { platformRuntime } = await import(${JSON.stringify(pathToFileURL(join(root, "worker", "runtime.ts")).href)});
const handle = createFetchHandler(platformRuntime);
const server = createServer(async (incoming, outgoing) => {
  const chunks = [];
  for await (const chunk of incoming) chunks.push(chunk);
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  const request = new Request(\`http://\${incoming.headers.host}\${incoming.url}\`, { method: incoming.method, headers: incoming.headers, body });
  const answer = await handle(request, { OPEN_ACCESS: "true" });
  outgoing.writeHead(answer.status, Object.fromEntries(answer.headers));
  if (answer.body) for await (const chunk of answer.body) outgoing.write(chunk);
  outgoing.end();
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

/**
 * Runs a README block (its path the first argument) with its calls to the providers' hosts sent
 * to the local Worker (the second), and the names the README leaves to the reader given: the
 * request's parts, its tools in the shape of the API the block calls.
 */
const README_BLOCK_HARNESS = `
import { pathToFileURL } from "node:url";
const [file, worker] = process.argv.slice(1);
const code = (await import("node:fs")).readFileSync(file, "utf8");
const network = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(typeof input === "string" ? input : input.url);
  const local = url.hostname === "api.openai.com" || url.hostname === "api.anthropic.com";
  return local ? network(worker + url.pathname + url.search, init) : network(input, init);
};
const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
Object.assign(globalThis, {
  key: "offline",
  messages: [{ role: "user", content: "Weather in Paris?" }],
  input: "Weather in Paris?",
  tools: code.includes("/v1/responses")
    ? [{ type: "function", name: "get_weather", parameters }]
    : [{ type: "function", function: { name: "get_weather", parameters } }],
});
await import(pathToFileURL(file).href);
`;

/** The TypeScript blocks of a markdown file marked `<!-- run: node -->` or `<!-- run: deno -->`. */
function runBlocks(markdown) {
  return [...markdown.matchAll(/<!-- run: (node|deno) -->\n+```ts\n([\s\S]*?)```/g)].map(([match, runtime, code]) => ({
    runtime,
    code,
    line: markdown.slice(0, markdown.indexOf(match)).split("\n").length,
  }));
}

/** The blocks of a markdown file marked `<!-- example: FILE -->` or `<!-- output: FILE -->`, with what they hold. */
function markedBlocks(markdown) {
  return [...markdown.matchAll(/<!-- (example|output): (\S+) -->\n+```[a-z]*\n([\s\S]*?)```/g)].map(
    ([, kind, file, text]) => ({ kind, file, text }),
  );
}

/**
 * The lines of a markdown file's shell blocks that run a `.ts` file with a bare `node`: the
 * system's Node, which before 22.18 fails with ERR_UNKNOWN_FILE_EXTENSION (npm scripts and `npx`
 * put the dev dependencies' Node 24 first on the PATH; a command typed by hand does not).
 */
function bareNodeOnTypeScript(markdown) {
  const lines = [];
  for (const { 1: body, index } of markdown.matchAll(/^```(?:sh|bash|console|shell)\n([\s\S]*?)^```/gm)) {
    const start = markdown.slice(0, index).split("\n").length;
    body.split("\n").forEach((line, i) => {
      if (/(?:^|[\s;&|(])node\s+\S+\.ts\b/.test(line.replace(/\S*node_modules\/\.bin\/node\b/g, "")))
        lines.push({ line: start + 1 + i, text: line });
    });
  }
  return lines;
}

/**
 * What the snippets of the README and the docs leave to the reader: the request's parts, the
 * app's own functions and values, and the SDKs' clients as the app made them (typed \`any\`: the
 * check is of this package's names and options, not of the SDKs').
 */
const SNIPPET_GLOBALS = `import type { ToolCallEvent } from "tool-call-stream";
declare global {
  const key: string;
  const messages: unknown[];
  const tools: { type: "function"; function: { name: string; parameters: Record<string, unknown> } }[];
  const input: unknown[];
  const contents: unknown[];
  const functionDeclarations: unknown[];
  const Deno: { env: { get(name: string): string | undefined } };
  const upstream: Response;
  const request: Request;
  const response: Response;
  const stream: boolean;
  const sse: Record<string, string>;
  const events: ReadableStream<ToolCallEvent>;
  const model: string;
  const url: string;
  const init: RequestInit;
  const headers: Record<string, string>;
  const body: string;
  const turns: unknown[];
  const max_tokens: number;
  const modelId: string;
  const toolConfig: unknown;
  function handle(event: ToolCallEvent): void;
  function forecast(city: string, unit: "c" | "f", signal: AbortSignal): Promise<{ celsius: number }>;
  function retry(error: unknown): void;
  function call(request: { messages: readonly unknown[]; signal: AbortSignal }): Promise<Response>;
  function convert(value: number, from: string, to: string, signal: AbortSignal): Promise<number>;
  function render(id: string | null, result: unknown, note: string): void;
  function run(name: string, args: unknown): void;
  const browser: { act(action: unknown): Promise<string> };
  function askUser(checks: { id: string; code?: string | null; message?: string | null }[]): Promise<boolean>;
  const openai: any;
  const anthropic: any;
  const ai: any;
  const bedrock: any;
  const cohere: any;
  const ollama: any;
  const ConverseStreamCommand: any;
}
export {};
`;

/** The import statements of a snippet. */
function importsOf(code) {
  return [...code.matchAll(/^[ \t]*import [\s\S]*?from "[^"]+";/gm)].map((match) => match[0]);
}

/** An import statement as one statement per name it binds, keyed by that name. */
function importedNames(statement) {
  const named = /import\s+(type\s+)?\{([\s\S]*?)\}\s*from\s*"([^"]+)"/.exec(statement);
  if (named === null) {
    const whole = /import\s+(?:\*\s+as\s+)?(\w+)\s+from/.exec(statement);
    return whole === null ? [] : [[whole[1], statement.trim()]];
  }
  const [, type, list, from] = named;
  return list
    .split(",")
    .map((spec) => spec.trim())
    .filter((spec) => spec !== "")
    .map((spec) => [spec.split(/\s+/).at(-1), `import ${type ?? ""}{ ${spec} } from "${from}";`]);
}

/** A snippet as a module: its imports, then the rest as the body of an async function (a route's \`return\`, \`await\`). */
function snippetModule(code) {
  const imports = importsOf(code);
  let body = code;
  for (const statement of imports) body = body.replace(statement, "");
  return `${imports.join("\n")}\nexport async function snippet() {\n${body}\n}\n`;
}

const checks = {
  snippets() {
    const markdowns = [
      "README.md",
      "worker/README.md", // its client-side blocks (reading the Worker's stream) import the package too
      ...readdirSync(join(root, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    // A block that imports the package, and in docs/ each block after it in its file, which goes
    // on with the imports of the blocks before it (a route's handler shown piece by piece).
    const blocks = markdowns.flatMap((markdown) => {
      const text = readFileSync(join(root, markdown), "utf8");
      const carried = new Map(); // name -> its import, from the blocks before
      return [...text.matchAll(/(<!-- example: \S+ -->\n+)?```ts\n([\s\S]*?)```/g)].flatMap(
        ([, marked, code], i, all) => {
          if (marked) return [];
          const own = importsOf(code).flatMap(importedNames);
          const names = new Set(own.map(([name]) => name));
          const before = [...carried].flatMap(([name, statement]) => (names.has(name) ? [] : [statement])).join("\n");
          if (markdown.startsWith("docs/")) for (const [name, statement] of own) carried.set(name, statement);
          if (!/from "(jsr:@tool-call-stream\/|npm:)?tool-call-stream[/"]/.test(before + code)) return [];
          const line = text.slice(0, all[i].index).split("\n").length + 1;
          return [{ name: `${markdown.replace(/\W/g, "-")}-line-${line}`, code: `${before}\n${code}` }];
        },
      );
    });
    if (!blocks.some((block) => block.name.startsWith("README")))
      return ["README.md has no TypeScript snippet that imports the package"];
    const dir = mkdtempSync(join(tmpdir(), "readme-snippets-"));
    try {
      writeFileSync(join(dir, "globals.d.ts"), SNIPPET_GLOBALS);
      for (const block of blocks) writeFileSync(join(dir, `${block.name}.ts`), snippetModule(block.code));
      const src = join(root, "src");
      writeFileSync(
        join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "ESNext",
            moduleResolution: "Bundler",
            lib: ["ES2022", "DOM", "DOM.Iterable", "DOM.AsyncIterable"],
            types: ["node"],
            typeRoots: [join(root, "node_modules", "@types")],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
            allowImportingTsExtensions: true,
            paths: {
              "tool-call-stream": [join(src, "index.ts")],
              "tool-call-stream/*": [join(src, "*.ts")],
              // Deno's specifiers (README.md's Deno blocks)
              "jsr:@tool-call-stream/tool-call-stream/*": [join(src, "*.ts")],
              "npm:tool-call-stream/*": [join(src, "*.ts")],
              "*": [join(root, "node_modules", "*")],
            },
          },
          include: ["*.ts"],
        }),
      );
      const tsc = spawnSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", dir], {
        encoding: "utf8",
      });
      if (tsc.status === 0) return [];
      return [
        `snippets (FILE-md-line-N.ts is FILE.md's block at line N):\n${tsc.stdout.replace(/^.*?((?:worker-README|README|docs)-[\w-]*line-\d+\.ts)/gm, "$1")}`,
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  async run() {
    const blocks = runBlocks(readFileSync(join(root, "README.md"), "utf8"));
    if (blocks.length === 0) return ["README.md has no block marked <!-- run: node --> or <!-- run: deno -->"];
    // The router imports the page's bundle, which only `npm start`, the typecheck and the Worker's
    // tests write: a fresh clone has none (build-page leaves an unchanged bundle as it is).
    execFileSync(process.execPath, [join(root, "scripts", "build-page.mjs")], { stdio: "inherit" });
    const server = spawn(node24, ["--input-type=module", "-e", OFFLINE_WORKER_SERVER], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    mkdirSync(join(root, ".tmp"), { recursive: true });
    // In the repository, so that a node block's `tool-call-stream` is the package itself (dist/).
    const dir = mkdtempSync(join(root, ".tmp", "readme-run-"));
    try {
      const port = await new Promise((resolve, reject) => {
        server.stdout.once("data", (data) => resolve(Number.parseInt(String(data), 10)));
        server.once("exit", (code) => reject(new Error(`the Worker's server exited with ${code}`)));
      });
      const worker = `http://127.0.0.1:${port}`;
      const problems = [];
      for (const { runtime, code, line } of blocks) {
        const file = join(dir, `line-${line}.ts`);
        writeFileSync(file, code);
        const ran =
          runtime === "node"
            ? spawnSync(node24, ["--input-type=module", "-e", README_BLOCK_HARNESS, file, worker], {
                cwd: root,
                encoding: "utf8",
              })
            : spawnSync(
                await onDemandBin("deno"),
                ["run", "--config", join(root, "deno.json"), `--allow-net=127.0.0.1:${port}`, "--allow-env", file],
                {
                  cwd: root,
                  encoding: "utf8",
                  env: {
                    ...process.env,
                    NO_COLOR: "1",
                    DENO_DIR: process.env.DENO_DIR ?? join(root, "node_modules", ".cache", "deno"),
                    ANTHROPIC_BASE_URL: worker,
                    OPENAI_BASE_URL: `${worker}/v1`,
                  },
                },
              );
        const last = ran.stdout.trim().split("\n").at(-1) ?? "";
        if (ran.status !== 0 || !last.startsWith("finish tool-calls"))
          problems.push(
            `README.md's ${runtime} block at line ${line} exited ${ran.status}, its last line ${JSON.stringify(last)} (not finish tool-calls):\n${ran.stdout}${ran.stderr}`,
          );
      }
      return problems;
    } finally {
      server.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  readme() {
    const output = execFileSync(node24, [join(root, "examples", "print-events.ts")], {
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
  async deno() {
    const env = {
      ...process.env,
      NO_COLOR: "1",
      DENO_DIR: process.env.DENO_DIR ?? join(root, "node_modules", ".cache", "deno"),
    };
    const deno = await onDemandBin("deno"); // installed on first use (scripts/on-demand.mjs)
    const output = execFileSync(deno, ["run", "--allow-read", join(root, "examples", "deno.ts")], {
      cwd: root,
      encoding: "utf8",
      env,
    });
    return verify(parseLines(output), expected("anthropic-text-then-tool-use"));
  },
  worker() {
    const output = execFileSync(node24, ["--input-type=module", "-e", WORKER_HARNESS], { cwd: root, encoding: "utf8" });
    const { stream, limited, unauthorized, bad, badReachedUpstream } = JSON.parse(output);
    const events = stream.events.map((e) => (e.type === "finish" ? { type: e.type, calls: e.toolCalls.length } : e));
    const problems = verify(events, expected("anthropic-text-then-tool-use")).map((p) => `the stream: ${p}`);
    if (stream.status !== 200 || stream.type !== "text/event-stream")
      problems.push(`the stream is ${stream.status} ${stream.type}`);
    const sentBody = JSON.parse(stream.sent.body);
    if (sentBody.stream !== true || stream.sent.headers["x-api-key"] !== "sk-test")
      problems.push("the provider request lacks stream: true or the key");
    if (limited.status !== 429 || limited.retryAfter !== "7" || limited.body !== limited.expected)
      problems.push(`a 429 with retry-after became ${JSON.stringify(limited)}`);
    if (unauthorized.status !== 401) problems.push(`a 401 from the provider became ${unauthorized.status}`);
    if (bad.some((status) => status !== 400))
      problems.push(`GET, empty, malformed, array and null bodies answered ${bad.join(", ")}, not 400`);
    if (badReachedUpstream !== 0) problems.push(`${badReachedUpstream} bad request(s) reached the provider`);
    return problems;
  },
  docs() {
    const problems = [];
    const files = [
      "README.md",
      "worker/README.md",
      ...readdirSync(join(root, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    let blocks = 0;
    for (const markdown of files) {
      for (const { kind, file, text } of markedBlocks(readFileSync(join(root, markdown), "utf8"))) {
        blocks++;
        const want =
          kind === "example"
            ? readFileSync(join(root, file), "utf8")
            : execFileSync(node24, ["--input-type=module", "-e", OFFLINE_WORKER_HARNESS, join(root, file)], {
                cwd: root,
                encoding: "utf8",
              });
        if (text !== want)
          problems.push(
            `${markdown}: the ${kind} block of ${file} is not ${kind === "example" ? "the file" : "what it prints"}:\n${text}instead of\n${want}`,
          );
      }
    }
    if (blocks === 0) problems.push("no marked example or output block in the docs");
    for (const markdown of [...files, "CONTRIBUTING.md"])
      for (const { line, text } of bareNodeOnTypeScript(readFileSync(join(root, markdown), "utf8")))
        problems.push(
          `${markdown}:${line} runs TypeScript with the system's node: ./node_modules/.bin/node\n  ${text}`,
        );
    return problems;
  },
  async browser() {
    const { chromium } = await import("playwright-core");
    const server = await serveStatic(["examples", "dist"]);
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
      // Safari (macOS and iOS) has no async iteration of a ReadableStream (webkit.org/b/194379):
      // the page runs without it, so that the example reads as every browser can.
      await page.addInitScript(() => {
        delete ReadableStream.prototype[Symbol.asyncIterator];
        delete ReadableStream.prototype.values;
      });
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
