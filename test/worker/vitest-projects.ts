// The vitest projects of the Worker, for the root vitest.config.ts: `worker` runs
// test/worker/ inside workerd with the root wrangler.toml (@cloudflare/vitest-plugin), and
// `e2e` starts `wrangler dev` and drives the page in headless Chromium from Node.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import type { TestProjectConfiguration } from "vitest/config";

export const workerProjects: TestProjectConfiguration[] = [
  {
    // Replays run without pacing here; the pacing itself is tested on an injected clock.
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { REPLAY_DELAY_MS: "0" } },
      }),
    ],
    test: { name: "worker", include: ["test/worker/**/*.test.ts"], globalSetup: ["test/worker/global-setup.ts"] },
  },
  {
    test: {
      name: "e2e",
      include: ["test/e2e/**/*.e2e.test.ts"],
      environment: "node",
      testTimeout: 60_000,
      hookTimeout: 150_000,
    },
  },
];
