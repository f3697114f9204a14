import type { SchemaNode } from "./schema-node.ts";

/**
 * A compiled schema's `exact` and `decided` flags, settled once the whole graph is compiled: a
 * `$ref` cycle reaches a schema still being compiled, whose flags are not known yet, so reading
 * them there (as `false`, to be safe) lost the early checks on every recursive schema.
 *
 * @module
 */

/** Each node compiled: the schemas it holds, and the index among them of the first it applies in place (`dependentSchemas`, `$ref`, `allOf`, ...). */
export type Kids = Map<SchemaNode, [SchemaNode[], number]>;

/**
 * Sets each node's flags from its own keywords' (`exact`, `decided` as the compilation left them)
 * and its kids': a node is exact when it and every schema it reaches are, but not when it applies
 * schemas in place in a cycle, or reaches such a cycle in place (`$ref`s that never go into the
 * value: the checks stop there and accept); decided likewise, and only when exact. A cycle that
 * goes into the value (a tree's `kids`) is no reason: each turn checks a smaller value. Linear in
 * the nodes and their kids.
 */
export function settleFlags(graph: Kids): void {
  // Every kid's parents, each with whether it applies the kid in place.
  const up = new Map<SchemaNode, [SchemaNode, boolean][]>();
  const left = new Map<SchemaNode, number>();
  for (const [node, [kids, placed]] of graph) {
    left.set(node, kids.length - placed);
    kids.forEach((kid, i) => {
      const parents = up.get(kid);
      if (parents) parents.push([node, i >= placed]);
      else up.set(kid, [[node, i >= placed]]);
    });
  }
  // Kahn's order over the in-place links: a node whose in-place kids all end, ends; those left
  // over are on a cycle in place, or reach one in place.
  const all = [...new Set([...up.keys(), ...graph.keys()])];
  const queue = all.filter((node) => !left.get(node));
  for (const node of queue)
    for (const [parent, placed] of up.get(node) ?? [])
      if (placed && left.set(parent, left.get(parent)! - 1).get(parent) === 0) queue.push(parent);
  for (const [node, count] of left) if (count) node.exact = false;
  for (const flag of ["exact", "decided"] as const) {
    // A flag that is false makes it false in every schema that holds it.
    const queue = all.filter((node) => !node[flag]);
    for (const node of queue)
      for (const [parent] of up.get(node) ?? [])
        if (parent[flag]) {
          parent[flag] = false;
          queue.push(parent);
        }
    for (const node of graph.keys()) node.decided &&= node.exact;
  }
}
