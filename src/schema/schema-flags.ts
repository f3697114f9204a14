import type { SchemaNode } from "./schema-node.ts";

/**
 * A compiled schema's `exact` and `decided` flags, settled once the whole graph is compiled: a
 * `$ref` cycle reaches a schema still being compiled, whose flags are not known yet, so reading
 * them there (as `false`, to be safe) lost the early checks on every recursive schema.
 *
 * @module
 */

/** Each node compiled that holds schemas: those, and the index among them of the first it applies in place (`dependentSchemas`, `$ref`, `allOf`, ...). */
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
  // Each node's parents, and those that apply it in place; how many of its in-place kids are not settled yet.
  const up = new Map<SchemaNode, SchemaNode[]>();
  const below = new Map<SchemaNode, SchemaNode[]>();
  const left = new Map<SchemaNode, number>();
  const link = (map: Map<SchemaNode, SchemaNode[]>, kid: SchemaNode, node: SchemaNode): void => {
    (map.get(kid) ?? map.set(kid, []).get(kid)!).push(node);
  };
  for (const [node, [kids, placed]] of graph) {
    let count = 0;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i]!;
      // A leaf (a boolean schema, one with no schema in it, one left unread): its flags are final.
      if (!graph.has(kid)) {
        node.exact &&= kid.exact;
        node.decided &&= kid.decided;
        continue;
      }
      link(up, kid, node);
      if (i >= placed) {
        link(below, kid, node);
        count++;
      }
    }
    left.set(node, count);
  }
  // Kahn's order over the in-place links: a node whose in-place kids all end, ends; those left
  // over are on a cycle in place, or reach one in place.
  const nodes = [...graph.keys()];
  const ended = nodes.filter((node) => !left.get(node));
  for (const node of ended)
    for (const parent of below.get(node) ?? [])
      if (!left.set(parent, left.get(parent)! - 1).get(parent)) ended.push(parent);
  for (const [node, count] of left) if (count) node.exact = false;
  // A flag that is false makes it false in every schema that holds it; a schema not exact is not decided.
  const spread = (flag: "exact" | "decided"): void => {
    const queue = nodes.filter((node) => !node[flag]);
    for (const node of queue)
      for (const parent of up.get(node) ?? [])
        if (parent[flag]) {
          parent[flag] = false;
          queue.push(parent);
        }
  };
  spread("exact");
  for (const node of nodes) node.decided &&= node.exact;
  spread("decided");
}
