// The `worker` vitest project's transport to workerd: with vitest's module cache on disk, a test
// file's first import is answered with its whole import graph in one WebSocket message, which
// for the SDK client tests reached 33.6-40.0 MB; workerd drops a message over 32 MiB and the
// file's runner with it (an unhandled error, the file's tests not run). Each module alone is
// at most ~9 MB (test/generated/external-fixtures.json).
import { describe, expect, it } from "vitest";
import type { TestProjectInlineConfiguration } from "vitest/config";
import { workerProjects } from "../worker/vitest-projects.ts";

describe("the worker vitest project", () => {
  it("fetches each module in its own message: no module cache on disk (fsModuleCache: false)", () => {
    const worker = workerProjects.find(
      (project): project is TestProjectInlineConfiguration =>
        typeof project === "object" && "test" in project && project.test?.name === "worker",
    );
    expect(worker?.test?.fsModuleCache).toBe(false);
  });
});
