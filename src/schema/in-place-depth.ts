import { MAX_IN_PLACE } from "./check-arguments.ts";
import type { PatternBudget } from "./pattern-budget.ts";
import { inPlace, type SchemaNode } from "./schema-node.ts";

/**
 * Whether a compiled schema applies more than {@link MAX_IN_PLACE} schemas in place one inside
 * another (`$ref`, `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`,
 * without going into the value), or applies schemas in place in a cycle: the checks stop there
 * and accept, so `checkToolSchema` refuses such a schema rather than let it accept unsaid.
 *
 * @module
 */

/** The schemas a node applies to the values inside its value, pushed to `into`. */
function inside(s: SchemaNode, into: SchemaNode[]): SchemaNode[] {
  for (const node of [s.items, s.contains, s.additionalProperties, s.propertyNames]) if (node) into.push(node);
  if (s.prefixItems) for (const node of s.prefixItems) into.push(node);
  if (s.properties) for (const node of s.properties.values()) into.push(node);
  if (s.patternProperties) for (const [, node] of s.patternProperties) into.push(node);
  return into;
}

/**
 * Whether any schema of `root`'s graph starts a chain of more than {@link MAX_IN_PLACE} in-place
 * schemas, or a cycle of them. Each pattern met is counted in `patterns` on the way: its escapes
 * once per source (those the compilation counted are not counted again), so that a schema compiled
 * before, without the request's budget, still has its patterns counted in it (a `$ref` can reach
 * patterns only the compilation sees), and its instructions once per place (a program of its own).
 */
export function appliesTooDeepInPlace(root: SchemaNode, patterns?: PatternBudget): boolean {
  const limit = MAX_IN_PLACE + 1;
  // The in-place schemas one inside another below each node, at most `limit`; `limit` while the
  // node is being measured, so that a cycle counts as endless. `level`: the chain that led to it, at
  // `limit` too long already, so the recursion stops there (a chain of thousands overflowed the stack).
  const depths = new Map<SchemaNode, number>();
  const depth = (node: SchemaNode, level: number): number => {
    const known = depths.get(node);
    if (known !== undefined) return known;
    if (level >= limit) return limit;
    depths.set(node, limit);
    let deepest = 0;
    // The node holding a `$dynamicRef`'s anchors is no schema of its own: no level.
    const skip = node.dynamicRef?.[2];
    for (const next of inPlace(node)) {
      const step = next === skip ? 0 : 1;
      if ((deepest = Math.max(deepest, step + depth(next, level + step))) >= limit) break;
    }
    depths.set(node, Math.min(deepest, limit));
    return Math.min(deepest, limit);
  };
  const seen = new Set([root]);
  const queue = [root];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    if (depth(node, 0) >= limit) return true;
    if (patterns)
      for (const pattern of node.patternProperties
        ? [node.pattern, ...node.patternProperties.map(([key]) => key)]
        : [node.pattern]) {
        if (!pattern) continue;
        patterns.take(pattern.source);
        patterns.instructionsLeft -= pattern.size;
      }
    for (const next of inside(node, inPlace(node)))
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
  }
  return false;
}
