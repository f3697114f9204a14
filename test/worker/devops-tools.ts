// More tools nobody here wrote, for test/worker/scripted-mcp-tools.test.ts: a developer's
// services (Jira, Stripe, Kubernetes, Docker, Notion, Linear, Git, DNS, ping), with integer enums,
// `exclusiveMinimum`, `multipleOf`, `uuid`, `hostname` and `ipv4` formats, `oneOf` items, labels
// beside their values ("deployment api-server", "namespace prod") and "look up" for `dns_lookup`.
const obj = (p: object, r: string[] = Object.keys(p)) => ({ type: "object", properties: p, required: r });
const s = (x: object = {}) => ({ type: "string", ...x });
/** Tools of services a developer runs: Jira, Stripe, Kubernetes, Docker, Notion, Linear, Git, DNS. */
export const DEVOPS_TOOLS: { name: string; description: string; parameters: object }[] = [
  {
    name: "jira_create_ticket",
    description: "Create a Jira ticket.",
    parameters: obj(
      {
        project_key: s({ pattern: "^[A-Z]{2,10}$" }),
        summary: s(),
        issue_type: { enum: ["Bug", "Task", "Story"] },
        story_points: { type: "integer", enum: [1, 2, 3, 5, 8, 13] },
      },
      ["project_key", "summary", "issue_type"],
    ),
  },
  {
    name: "stripe_create_refund",
    description: "Refund a Stripe charge.",
    parameters: obj(
      {
        charge_id: s({ pattern: "^ch_[A-Za-z0-9]+$" }),
        amount_cents: { type: "integer", minimum: 1 },
        reason: { enum: ["duplicate", "fraudulent", "requested_by_customer"] },
      },
      ["charge_id"],
    ),
  },
  {
    name: "k8s_scale_deployment",
    description: "Scale a Kubernetes deployment.",
    parameters: obj(
      {
        namespace: s({ default: "default" }),
        deployment: s({ pattern: "^[a-z0-9-]+$" }),
        replicas: { type: "integer", minimum: 0, maximum: 50 },
      },
      ["deployment", "replicas"],
    ),
  },
  {
    name: "docker_run",
    description: "Run a container from an image.",
    parameters: obj(
      {
        image: s(),
        ports: {
          type: "array",
          items: obj({
            host: { type: "integer", minimum: 1, maximum: 65535 },
            container: { type: "integer", minimum: 1, maximum: 65535 },
          }),
        },
        detach: { type: "boolean", default: true },
        env: { type: "object", additionalProperties: s() },
      },
      ["image"],
    ),
  },
  {
    name: "convert_temperature",
    description: "Convert a temperature.",
    parameters: obj({
      value: { type: "number" },
      from: { enum: ["celsius", "fahrenheit", "kelvin"] },
      to: { enum: ["celsius", "fahrenheit", "kelvin"] },
    }),
  },
  {
    name: "convert_currency",
    description: "Convert money between currencies.",
    parameters: obj({
      amount: { type: "number", exclusiveMinimum: 0 },
      base: s({ pattern: "^[A-Z]{3}$" }),
      quote: s({ pattern: "^[A-Z]{3}$" }),
    }),
  },
  {
    name: "notion_create_page",
    description: "Create a Notion page.",
    parameters: obj(
      {
        parent_id: s({ format: "uuid" }),
        title: s({ maxLength: 100 }),
        blocks: {
          type: "array",
          items: {
            oneOf: [
              obj({ type: { const: "paragraph" }, text: s() }),
              obj({ type: { const: "todo" }, text: s(), checked: { type: "boolean" } }),
            ],
          },
        },
      },
      ["parent_id", "title"],
    ),
  },
  {
    name: "linear_update_issue",
    description: "Update a Linear issue.",
    parameters: obj(
      {
        issue_id: s({ pattern: "^[A-Z]+-\\d+$" }),
        state: { enum: ["backlog", "todo", "in_progress", "done", "canceled"] },
        priority: { type: "integer", minimum: 0, maximum: 4 },
      },
      ["issue_id"],
    ),
  },
  {
    name: "schedule_meeting",
    description: "Schedule a meeting with attendees.",
    parameters: obj(
      {
        title: s(),
        start: s({ format: "date-time" }),
        duration_minutes: { type: "integer", multipleOf: 15, minimum: 15, maximum: 480 },
        attendees: { type: "array", items: s({ format: "email" }), minItems: 1 },
        video: { type: "boolean" },
      },
      ["title", "start", "duration_minutes", "attendees"],
    ),
  },
  {
    name: "get_air_quality",
    description: "Air quality index for a location.",
    parameters: obj({
      latitude: { type: "number", minimum: -90, maximum: 90 },
      longitude: { type: "number", minimum: -180, maximum: 180 },
    }),
  },
  {
    name: "set_alarm",
    description: "Set an alarm clock.",
    parameters: obj(
      {
        time: s({ pattern: "^([01]\\d|2[0-3]):[0-5]\\d$" }),
        days: { type: "array", items: { enum: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] }, uniqueItems: true },
        label: s(),
      },
      ["time"],
    ),
  },
  {
    name: "git_commit",
    description: "Commit staged changes.",
    parameters: obj(
      { message: s({ minLength: 3 }), amend: { type: "boolean", default: false }, sign: { type: "boolean" } },
      ["message"],
    ),
  },
  {
    name: "dns_lookup",
    description: "Look up DNS records.",
    parameters: obj(
      { hostname: s({ format: "hostname" }), record_type: { enum: ["A", "AAAA", "MX", "TXT", "CNAME"], default: "A" } },
      ["hostname"],
    ),
  },
  {
    name: "ping_host",
    description: "Ping an IP address.",
    parameters: obj({ ip: s({ format: "ipv4" }), count: { type: "integer", minimum: 1, maximum: 10, default: 4 } }, [
      "ip",
    ]),
  },
];
/** A prompt, the one tool it asks for, and what that call's arguments hold (at least). */
export const DEVOPS_PROMPTS: [prompt: string, tool: string, args: object][] = [
  [
    "Create a Jira bug in project WEB: 'Checkout button broken', 3 story points",
    "jira_create_ticket",
    { project_key: "WEB", summary: "Checkout button broken", issue_type: "Bug", story_points: 3 },
  ],
  [
    "Refund 1500 cents on charge ch_3MmlLrLkdIwHu7ix, it was a duplicate",
    "stripe_create_refund",
    { charge_id: "ch_3MmlLrLkdIwHu7ix", amount_cents: 1500, reason: "duplicate" },
  ],
  [
    "Scale the deployment api-server to 5 replicas in namespace prod",
    "k8s_scale_deployment",
    { deployment: "api-server", replicas: 5, namespace: "prod" },
  ],
  ["Run the nginx:latest container with port 8080 mapped to 80", "docker_run", {}],
  ["Convert 100 fahrenheit to celsius", "convert_temperature", { value: 100, from: "fahrenheit", to: "celsius" }],
  ["Convert 250 USD to EUR", "convert_currency", { amount: 250, base: "USD", quote: "EUR" }],
  [
    "Create a Notion page 'Sprint notes' under 1b2c3d4e-0000-4000-8000-123456789abc",
    "notion_create_page",
    { parent_id: "1b2c3d4e-0000-4000-8000-123456789abc", title: "Sprint notes" },
  ],
  ["Move issue ENG-42 to done", "linear_update_issue", { issue_id: "ENG-42", state: "done" }],
  [
    "Set ENG-7 to in progress with priority 1",
    "linear_update_issue",
    { issue_id: "ENG-7", state: "in_progress", priority: 1 },
  ],
  [
    "Schedule a meeting 'Retro' at 2026-12-11T15:00:00Z for 45 minutes with dev@example.com and qa@example.com, no video",
    "schedule_meeting",
    {
      title: "Retro",
      start: "2026-12-11T15:00:00Z",
      duration_minutes: 45,
      attendees: ["dev@example.com", "qa@example.com"],
      video: false,
    },
  ],
  [
    "What's the air quality at latitude 48.85, longitude 2.35?",
    "get_air_quality",
    { latitude: 48.85, longitude: 2.35 },
  ],
  ["Set an alarm for 06:30 on mon and wed", "set_alarm", { time: "06:30", days: ["mon", "wed"] }],
  [
    "Commit with message 'fix typo' and sign it, don't amend",
    "git_commit",
    { message: "fix typo", sign: true, amend: false },
  ],
  ["Look up the MX records of example.org", "dns_lookup", { hostname: "example.org", record_type: "MX" }],
  ["Ping 192.168.1.1 3 times", "ping_host", { ip: "192.168.1.1", count: 3 }],
  ["Convert 20 celsius into kelvin", "convert_temperature", { value: 20, from: "celsius", to: "kelvin" }],
];
