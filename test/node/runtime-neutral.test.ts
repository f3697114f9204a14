// The library and the Worker must run unmodified in workerd, Deno and browsers: no Node-only API.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const NODE_ONLY = /from\s+["']node:|require\(|\bBuffer\b|\bprocess\.|__dirname|__filename|setImmediate\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sourceFiles(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

describe("runtime neutrality", () => {
  for (const dir of ["src", "worker"]) {
    it(`${dir}/ uses no Node-only API`, () => {
      const offenders = sourceFiles(dir).flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, i) => ({ file, line: i + 1, text: line }))
          .filter(({ text }) => !/^\s*(\/\/|\*)/.test(text) && NODE_ONLY.test(text)),
      );
      expect(offenders).toEqual([]);
    });
  }

  it("src/ type-checks without Node's types", () => {
    const tsconfig = JSON.parse(readFileSync("tsconfig.json", "utf8"));
    expect(tsconfig.compilerOptions.types).toEqual([]);
    expect(tsconfig.compilerOptions.lib).not.toContain("node");
  });
});
