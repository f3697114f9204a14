// Documentation check (issue 8), over every entry point that deno.json exports:
//   1. `deno doc --lint`: every exported symbol and each of its members has TSDoc, every export
//      has an explicit type, and no public signature refers to a type that is not exported.
//   2. Every exported class, function and constant has an `@example` (types and interfaces are
//      documented by (1); their example is the one of the class or function that takes them).
//   3. Every link of the repository's markdown to one of its own files (relative, or this
//      repository's GitHub `blob/main` / `tree/main` URL, which the README uses so that npm and
//      JSR show it) names a file that exists, and its `#anchor` a heading of that file, as
//      GitHub writes heading anchors: a renamed file or heading cannot leave a dead link.
//   4. README.md, which npm and JSR show away from the repository, links to the repository's files
//      by their GitHub URL only: a relative link there reaches no file on npm's or JSR's page.
// Prints what is missing, grouped by file, and exits 1 if anything is.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { onDemandBin } from "./on-demand.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const deno = await onDemandBin("deno"); // installed on first use (scripts/on-demand.mjs)
const { FORCE_COLOR, ...inherited } = process.env; // deno colours its output when FORCE_COLOR is set at all
const env = {
  ...inherited,
  NO_COLOR: "1",
  DENO_DIR: process.env.DENO_DIR ?? join(root, "node_modules", ".cache", "deno"),
};
const entries = Object.values(JSON.parse(readFileSync(join(root, "deno.json"), "utf8")).exports);
const failures = [];

const lint = spawnSync(deno, ["doc", "--lint", ...entries], { cwd: root, env, encoding: "utf8" });
if (lint.status !== 0) {
  const problems = new Map();
  const output = `${lint.stdout}${lint.stderr}`.replace(/\x1b\[[0-9;]*m/g, "");
  for (const match of output.matchAll(/^error\[([a-z-]+)\]: (.*)\n\s*--> (.*?):(\d+):\d+/gm)) {
    const [, rule, message, file, line] = match;
    const key = relative(root, file.replace(/^file:\/\//, ""));
    if (!problems.has(key)) problems.set(key, []);
    problems.get(key).push(`${line}: ${rule}${rule === "missing-jsdoc" ? "" : ` (${message})`}`);
  }
  if (problems.size === 0) failures.push(`deno doc --lint failed (exit ${lint.status}):\n${output}`);
  for (const [file, lines] of problems)
    failures.push(`${file}: ${lines.length} lint error(s) at lines ${lines.join(", ")}`);
}

const json = spawnSync(deno, ["doc", "--json", ...entries], {
  cwd: root,
  env,
  encoding: "utf8",
  maxBuffer: 64 * 1024 * 1024,
});
if (json.status !== 0) failures.push(`deno doc --json failed (exit ${json.status}): ${json.stderr}`);
else {
  const withoutExample = new Map();
  const seen = new Set();
  for (const module of Object.values(JSON.parse(json.stdout).nodes)) {
    for (const symbol of module.symbols) {
      for (const declaration of symbol.declarations) {
        if (!["class", "function", "variable"].includes(declaration.kind)) continue;
        const file = relative(root, fileURLToPath(declaration.location.filename));
        const key = `${file}:${symbol.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        if ((declaration.jsDoc?.tags ?? []).some((tag) => tag.kind === "example")) continue;
        if (!withoutExample.has(file)) withoutExample.set(file, []);
        withoutExample.get(file).push(symbol.name);
      }
    }
  }
  for (const [file, names] of withoutExample) failures.push(`${file}: no @example on ${names.join(", ")}`);
  if (seen.size === 0) failures.push("deno doc --json listed no exported class, function or constant");
  else if (failures.length === 0)
    console.log(
      `docs: ${seen.size} exported classes, functions and constants, each documented with an @example; deno doc --lint clean`,
    );
}

/** The lines of a markdown file outside its fenced code blocks, with their numbers. */
function proseLines(text) {
  let fenced = false;
  return text.split("\n").flatMap((line, i) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    return fenced || /^\s*(```|~~~)/.test(line) ? [] : [{ line, number: i + 1 }];
  });
}

/** The anchors GitHub gives a markdown file's headings (lower case, punctuation dropped, spaces as `-`, repeats numbered). */
function headingAnchors(file) {
  const anchors = new Set();
  const seen = new Map();
  for (const { line } of proseLines(readFileSync(file, "utf8"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

const own = /^https:\/\/github\.com\/tool-call-stream\/tool-call-stream\/(?:blob|tree)\/main\/(.*)$/;
const markdownFiles = execFileSync("git", ["ls-files", "*.md"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter(Boolean);
let links = 0;
for (const file of markdownFiles) {
  for (const { line, number } of proseLines(readFileSync(join(root, file), "utf8"))) {
    for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const github = own.exec(target);
      if (!github && /^[a-z][a-z+.-]*:/i.test(target)) continue; // another site, mailto:, ...
      const [path, anchor] = (github ? github[1] : target).split("#");
      if (file === "README.md" && !github && path !== "")
        failures.push(
          `${file}:${number}: the link ${target} is relative, which npm and JSR cannot follow: use https://github.com/tool-call-stream/tool-call-stream/blob/main/${path}`,
        );
      const resolved = github ? join(root, path) : path === "" ? join(root, file) : join(root, dirname(file), path);
      links++;
      if (!existsSync(resolved)) failures.push(`${file}:${number}: the link ${target} names no file`);
      else if (anchor && resolved.endsWith(".md") && !headingAnchors(resolved).has(decodeURIComponent(anchor)))
        failures.push(`${file}:${number}: the link ${target} names no heading of ${relative(root, resolved)}`);
    }
  }
}
if (links === 0) failures.push("no link between the repository's markdown files was found");
else if (failures.length === 0) console.log(`docs: ${links} links to the repository's own files and headings resolve`);

for (const failure of failures) console.error(`!! docs: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
