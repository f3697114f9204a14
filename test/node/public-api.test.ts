// Every name each entry module exported when the layout changed (issue 13), and each subpath added
// since (tool-call-stream/encode, issue 15), is still exported: test/node/public-api.json lists
// them. New names may be added; none may disappear.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const published = JSON.parse(readFileSync("test/node/public-api.json", "utf8")) as Record<string, string[]>;
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

describe("the public API", () => {
  for (const [subpath, names] of Object.entries(published)) {
    it(`${subpath} still exports every name it exported`, () => {
      const module = checker.getSymbolAtLocation(program.getSourceFile(entryFile(subpath))!)!;
      const exported = new Set(checker.getExportsOfModule(module).map((symbol) => symbol.name));
      expect(names.filter((name) => !exported.has(name))).toEqual([]);
    });
  }
});
