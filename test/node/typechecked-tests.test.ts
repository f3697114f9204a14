// Every TypeScript file under test/ is type-checked by `npm test`: a root of one of the projects
// its typecheck step (`npm run typecheck`, with `typecheck:worker`) passes to tsc with `-p`, read
// from package.json. Vitest strips types without checking them, so a file no project lists can
// call an API that does not exist and pass. No folder is left out: test/node/ and test/runtime/
// too (their Node files in test/node/tsconfig.json, the Worker's in test/node/tsconfig.worker.json).
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

function typeScriptFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : typeScriptFiles(path);
    return /\.(m?ts|tsx)$/.test(entry.name) ? [path] : [];
  });
}

/** The projects of `npm run typecheck`: each `-p <tsconfig>` of it and of the scripts it runs. */
function typecheckProjects(): string[] {
  const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
  const commands = [scripts["typecheck"] ?? "", scripts["typecheck:worker"] ?? ""].join(" ");
  return [...commands.matchAll(/-p\s+(\S+)/g)].map((match) => match[1]!);
}

/** The root files of a project, as tsc resolves its `include` and `exclude` (no checking). */
function rootsOf(project: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    resolve(project),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  return (parsed?.fileNames ?? []).map((file) => relative(process.cwd(), file));
}

describe("type-checked tests", () => {
  it("npm test runs typecheck, and every .ts file under test/ is a root of one of its projects", () => {
    expect(readFileSync("scripts/test-all.sh", "utf8")).toMatch(/npm run --silent typecheck\b(?!:)/);
    const checked = new Set(typecheckProjects().flatMap(rootsOf));
    expect(typeScriptFiles("test").filter((file) => !checked.has(file))).toEqual([]);
  });
});
