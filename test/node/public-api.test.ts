// Every name each entry module exported when the layout changed (issue 13), and each subpath added
// since (tool-call-stream/encode, issue 15), is still exported: test/node/public-api.json lists
// them. New names may be added; a name disappears only deliberately: listed under `removed` with
// the entry modules it left and the words of its CHANGELOG entry, which CHANGELOG.md must hold.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

interface Removed {
  name: string;
  from: string[];
  changelog: string;
}
const { removed, ...published } = JSON.parse(readFileSync("test/node/public-api.json", "utf8")) as Record<
  string,
  string[]
> & { removed: Removed[] };
const changelog = readFileSync("CHANGELOG.md", "utf8");
const entryFile = (subpath: string): string => resolve("src", `${subpath === "." ? "index" : subpath.slice(2)}.ts`);

const files = Object.keys(published).map(entryFile);
const program = ts.createProgram(files, {
  allowImportingTsExtensions: true,
  noEmit: true,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
});
const checker = program.getTypeChecker();
const exportsOf = (subpath: string): Set<string> => {
  const module = checker.getSymbolAtLocation(program.getSourceFile(entryFile(subpath))!)!;
  return new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
};

describe("the public API", () => {
  for (const [subpath, names] of Object.entries(published)) {
    it(`${subpath} still exports every name it exported`, () => {
      const exported = exportsOf(subpath);
      expect(names.filter((name) => !exported.has(name))).toEqual([]);
    });
  }
  for (const { name, from, changelog: entry } of removed) {
    it(`${name} was removed deliberately: gone from ${from.join(", ")}, in the CHANGELOG`, () => {
      expect(from.filter((subpath) => exportsOf(subpath).has(name))).toEqual([]);
      expect(from.filter((subpath) => published[subpath]?.includes(name))).toEqual([]);
      expect(changelog.includes(entry) && entry.includes(name)).toBe(true);
    });
  }
});
