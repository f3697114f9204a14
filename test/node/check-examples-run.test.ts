// `npm run examples -- run` (scripts/check-examples.mjs run), which the README gives for running
// its blocks against the Worker offline, in a tree where the Worker's page was never built: a
// fresh clone after `npm install` and `npm run build`, before any `npm start` or typecheck wrote
// worker/page/generated/. Run in a copy of the scripts and the Worker (a symlink would resolve to
// this tree, whose page is built), with a README of one block that needs no build of the package.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repository = resolve(".");
const root = mkdtempSync(join(tmpdir(), "check-examples-run-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const README = `# A README of one block

<!-- run: node -->

\`\`\`ts
const response = await fetch("https://api.openai.com/v1/chat/completions", {
  method: "POST",
  headers: { authorization: \`Bearer \${key}\`, "content-type": "application/json" },
  body: JSON.stringify({ model: "gpt-4o-mini", stream: true, messages, tools }),
});
const body = await response.text();
console.log(body.includes('"finish_reason":"tool_calls"') ? "finish tool-calls" : body);
\`\`\`
`;

describe("npm run examples -- run", () => {
  it("runs a README block against the Worker in a tree whose page was never built", () => {
    mkdirSync(join(root, "scripts"));
    for (const script of ["check-examples.mjs", "build-page.mjs", "on-demand.mjs"])
      cpSync(join(repository, "scripts", script), join(root, "scripts", script));
    cpSync(join(repository, "worker"), join(root, "worker"), {
      recursive: true,
      filter: (source) => !source.startsWith(join(repository, "worker", "page", "generated")),
    });
    for (const shared of ["src", "node_modules"]) symlinkSync(join(repository, shared), join(root, shared));
    writeFileSync(join(root, "README.md"), README);
    expect(existsSync(join(root, "worker", "page", "generated"))).toBe(false);

    const ran = spawnSync(process.execPath, [join(root, "scripts", "check-examples.mjs"), "run"], {
      cwd: root,
      encoding: "utf8",
    });
    expect(ran.stderr).not.toContain("!! examples");
    expect(ran.stdout).toContain("examples: run ok");
    expect(ran.status).toBe(0);
  }, 120_000);
});
