// Tools as MCP servers and apps declare them (a file system, GitHub, Slack, a calendar, units,
// times, a thermostat, web search, email, orders, reminders, translation, stocks, flights, SQL,
// todos, images, weather), all offered at once, and prompts nobody here wrote for them: what
// test/worker/scripted-mcp-tools.test.ts sends the scripted model, through each client protocol.

const object = (properties: object, required: string[] = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
});
const text = { type: "string" };
const zone = { type: "string", description: "IANA time zone name, e.g. America/New_York" };
const when = { type: "string", format: "date-time" };
const units = { enum: ["m", "km", "mi", "ft", "kg", "lb"] };

/** A tool as a client declares it. */
export interface McpTool {
  name: string;
  description: string;
  parameters: object;
}

export const MCP_TOOLS: McpTool[] = [
  ["read_file", "Read the complete contents of a file.", object({ path: text })],
  ["write_file", "Create or overwrite a file.", object({ path: text, content: text })],
  [
    "list_directory",
    "List files and directories in a path.",
    object(
      {
        path: text,
        recursive: { type: "boolean", default: false },
        max_depth: { type: "integer", minimum: 1, maximum: 10 },
      },
      ["path"],
    ),
  ],
  ["move_file", "Move or rename files and directories.", object({ source: text, destination: text })],
  [
    "search_files",
    "Recursively search for files matching a pattern.",
    object({ path: text, pattern: text, excludePatterns: { type: "array", items: text } }, ["path", "pattern"]),
  ],
  [
    "create_issue",
    "Create a new issue in a GitHub repository.",
    object(
      {
        owner: text,
        repo: text,
        title: text,
        body: text,
        labels: { type: "array", items: { enum: ["bug", "enhancement", "documentation"] }, uniqueItems: true },
      },
      ["owner", "repo", "title"],
    ),
  ],
  [
    "get_pull_request",
    "Get details of a pull request.",
    object({ owner: text, repo: text, pull_number: { type: "integer", minimum: 1 } }),
  ],
  [
    "slack_post_message",
    "Post a message to a Slack channel.",
    object({ channel_id: { type: "string", pattern: "^C[A-Z0-9]{8,}$" }, text: { type: "string", minLength: 1 } }),
  ],
  [
    "slack_list_channels",
    "List public channels in the workspace.",
    object({ limit: { type: "integer", minimum: 1, maximum: 200, default: 100 }, cursor: text }, []),
  ],
  [
    "create_event",
    "Create a calendar event.",
    object(
      {
        summary: text,
        start: object({ dateTime: when, timeZone: zone }, ["dateTime"]),
        end: object({ dateTime: when, timeZone: zone }, ["dateTime"]),
        attendees: {
          type: "array",
          items: object({ email: { type: "string", format: "email" }, optional: { type: "boolean" } }, ["email"]),
        },
      },
      ["summary", "start", "end"],
    ),
  ],
  [
    "list_events",
    "List calendar events in a time range.",
    object({ timeMin: when, timeMax: when, maxResults: { type: "integer", minimum: 1, maximum: 250 } }, ["timeMin"]),
  ],
  [
    "convert_units",
    "Convert a value between units.",
    object({ value: { type: "number" }, from_unit: units, to_unit: units }),
  ],
  ["get_current_time", "Get the current time in a timezone.", object({ timezone: zone })],
  [
    "set_thermostat",
    "Set the thermostat's temperature and mode.",
    object({
      temperature: { type: "number", minimum: 10, maximum: 30, multipleOf: 0.5 },
      mode: { type: "string", enum: ["heat", "cool", "auto"] },
    }),
  ],
  [
    "web_search",
    "Search the web.",
    object({ query: text, count: { type: "integer", minimum: 1, maximum: 20 }, safe_search: { type: "boolean" } }, [
      "query",
    ]),
  ],
  [
    "send_email",
    "Send an email.",
    object(
      {
        to: { type: "array", items: { type: "string", format: "email" }, minItems: 1 },
        subject: text,
        body: text,
        include_signature: { type: "boolean", default: true },
      },
      ["to", "subject", "body"],
    ),
  ],
  [
    "create_order",
    "Place an order for a customer.",
    object({
      customer_id: { type: "integer", minimum: 1 },
      items: {
        type: "array",
        minItems: 1,
        items: object({
          sku: { type: "string", pattern: "^SKU-\\d{4}$" },
          quantity: { type: "integer", minimum: 1, maximum: 99 },
        }),
      },
      shipping: {
        oneOf: [
          object({ method: { const: "pickup" }, store_id: { type: "integer" } }),
          object({
            method: { const: "delivery" },
            address: object({ street: text, postal_code: { type: "string", pattern: "^\\d{5}$" } }),
          }),
        ],
      },
    }),
  ],
  [
    "translate_text",
    "Translate text into another language.",
    object({ text, target_language: { type: "string", enum: ["en", "de", "fr", "es", "ja", "zh"] } }),
  ],
  [
    "get_stock_price",
    "Get the latest price for a ticker.",
    object({ symbol: { type: "string", pattern: "^[A-Z]{1,5}$" } }),
  ],
  [
    "book_flight",
    "Book a flight.",
    object(
      {
        origin: { type: "string", pattern: "^[A-Z]{3}$" },
        destination: { type: "string", pattern: "^[A-Z]{3}$" },
        departure_date: { type: "string", format: "date" },
        passengers: { type: "integer", minimum: 1, maximum: 9 },
        nonstop: { type: "boolean" },
      },
      ["origin", "destination", "departure_date", "passengers"],
    ),
  ],
  [
    "query_database",
    "Run a read-only SQL query.",
    object({ sql: text, timeout_ms: { type: "integer", minimum: 100, maximum: 60000, multipleOf: 100 } }, ["sql"]),
  ],
  [
    "create_todo",
    "Add an item to the todo list.",
    object(
      { title: text, priority: { type: "integer", minimum: 1, maximum: 5 }, due: { type: "string", format: "date" } },
      ["title"],
    ),
  ],
  [
    "resize_image",
    "Resize an image.",
    object({
      url: { type: "string", format: "uri" },
      width: { type: "integer", minimum: 1 },
      height: { type: "integer", minimum: 1 },
      keep_aspect_ratio: { type: "boolean", default: true },
    }),
  ],
  [
    "get_weather",
    "Get the weather for a city.",
    object({ city: text, units: { enum: ["celsius", "fahrenheit"] } }, ["city"]),
  ],
].map(([name, description, parameters]) => ({ name, description, parameters }) as McpTool);

/** A prompt, the one tool it asks for, and what that call's arguments hold (at least). */
export const MCP_PROMPTS: [prompt: string, tool: string, args: object][] = [
  ["Read the file src/index.ts", "read_file", { path: "src/index.ts" }],
  [
    "Move report.pdf to archive/2025/report.pdf",
    "move_file",
    { source: "report.pdf", destination: "archive/2025/report.pdf" },
  ],
  [
    "List the directory /var/log recursively, at most 3 levels deep",
    "list_directory",
    { path: "/var/log", recursive: true, max_depth: 3 },
  ],
  ["Search for files matching *.test.ts in src", "search_files", { path: "src", pattern: "*.test.ts" }],
  [
    "Create an issue on octocat/hello-world titled 'Crash on startup' with the bug label",
    "create_issue",
    { owner: "octocat", repo: "hello-world", title: "Crash on startup", labels: ["bug"] },
  ],
  ["Show PR 7 of vercel/next.js", "get_pull_request", { owner: "vercel", repo: "next.js", pull_number: 7 }],
  [
    "Post 'Deploy finished' to Slack channel C01ABCDEF23",
    "slack_post_message",
    { channel_id: "C01ABCDEF23", text: "Deploy finished" },
  ],
  [
    "Schedule 'Design review' on 2026-12-10 from 10:00 to 11:00",
    "create_event",
    {
      summary: "Design review",
      start: { dateTime: "2026-12-10T10:00:00Z" },
      end: { dateTime: "2026-12-10T11:00:00Z" },
    },
  ],
  [
    "List events between 2026-12-01T00:00:00Z and 2026-12-07T00:00:00Z, at most 20",
    "list_events",
    { timeMin: "2026-12-01T00:00:00Z", timeMax: "2026-12-07T00:00:00Z", maxResults: 20 },
  ],
  ["Convert 12 kg into lb", "convert_units", { value: 12, from_unit: "kg", to_unit: "lb" }],
  ["What time is it in Tokyo right now?", "get_current_time", { timezone: "Asia/Tokyo" }],
  ["Set the thermostat to 21.5 degrees in heat mode", "set_thermostat", { temperature: 21.5, mode: "heat" }],
  [
    "Search the web for rust async runtimes, 5 results, don't use safe search",
    "web_search",
    { query: "rust async runtimes", count: 5, safe_search: false },
  ],
  [
    "Email bob@example.com and carol@example.com with subject 'Lunch' saying see you at noon, without my signature",
    "send_email",
    {
      to: ["bob@example.com", "carol@example.com"],
      subject: "Lunch",
      body: "see you at noon",
      include_signature: false,
    },
  ],
  [
    "Order 3 of SKU-1234 for customer 77",
    "create_order",
    { customer_id: 77, items: [{ sku: "SKU-1234", quantity: 3 }] },
  ],
  [
    "Translate 'thank you very much' into Japanese",
    "translate_text",
    { text: "thank you very much", target_language: "ja" },
  ],
  [
    "Book a nonstop flight to LHR from JFK on 2026-12-20 for 2 passengers",
    "book_flight",
    { origin: "JFK", destination: "LHR", departure_date: "2026-12-20", passengers: 2, nonstop: true },
  ],
  [
    "Run the query SELECT * FROM orders WHERE total > 100, with a timeout of 5000 ms",
    "query_database",
    { sql: "SELECT * FROM orders WHERE total > 100", timeout_ms: 5000 },
  ],
  [
    "Add a todo 'buy milk' with priority 2, due 2026-12-05",
    "create_todo",
    { title: "buy milk", priority: 2, due: "2026-12-05" },
  ],
  [
    "Resize https://example.com/cat.png to 800x600 without keeping the aspect ratio",
    "resize_image",
    { url: "https://example.com/cat.png", width: 800, height: 600, keep_aspect_ratio: false },
  ],
  ["Wie ist das Wetter in München?", "get_weather", { city: "München" }],
  ["東京の天気は？", "get_weather", { city: "東京" }],
];
