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
    test: {
      name: "worker",
      include: ["test/worker/**/*.test.ts"],
      globalSetup: ["test/worker/global-setup.ts"],
      // With the module cache on disk, a test file's first import gets its whole import graph
      // in one WebSocket message (vitest's fetchWarmModules, inlined by the pool): 17-40 MB for
      // the client tests, and workerd drops a message over 32 MiB, killing the file's runner.
      // Without it every module comes in its own message (the largest, ai-v7, ~3 MB).
      fsModuleCache: false,
    },
  },
  {
    test: {
      name: "e2e",
      include: ["test/e2e/**/*.e2e.test.ts"],
      environment: "node",
      globalSetup: ["test/e2e/global-setup.ts"],
      testTimeout: 60_000,
      hookTimeout: 150_000,
    },
  },
];
