import { execSync } from "node:child_process";
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { workerProjects } from "./test/worker/vitest-projects.ts";

/** Debian's chromium: the browser runtime never downloads a browser of its own. */
function chromiumPath(): string | undefined {
  try {
    return execSync("command -v chromium", { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined; // the browser project then fails with a clear launch error
  }
}

const suite = ["test/runtime/suite.test.ts"];

export default defineConfig({
  test: {
    globalSetup: ["test/runtime/global-setup.ts"],
    projects: [
      { test: { name: "node", include: [...suite, "test/node/**/*.test.ts"], environment: "node" } },
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./test/runtime/wrangler.test.jsonc" } })],
        test: { name: "workerd", include: suite },
      },
      {
        test: {
          name: "browser",
          include: suite,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                ...(chromiumPath() ? { executablePath: chromiumPath() } : {}),
                args: [
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--no-first-run",
                ],
              },
            }),
            instances: [{ browser: "chromium" }],
          },
        },
      },
      ...workerProjects,
    ],
  },
});
