// The Deno runner of the shared suite: the same cases, imported as a Deno user imports the
// library (TypeScript sources, npm dependencies resolved through package.json).
import { cases } from "../all-cases.ts";

declare const Deno: { test(name: string, fn: () => void | Promise<void>): void };

for (const testCase of cases) Deno.test(`${testCase.group} › ${testCase.name}`, testCase.run);
