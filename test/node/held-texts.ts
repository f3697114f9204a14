// The heap-snapshot measure of the kept-text probes (run with `--expose-gc`, in a Node process of their own).
import { getHeapSnapshot } from "node:v8";

const MiB = 2 ** 20;

/** The bytes of the strings alive of at least 1 MiB and less than 2 (the probes' texts, and nothing of Node's). */
export async function heldTexts(): Promise<number> {
  (globalThis as { gc?: () => void }).gc!();
  let text = "";
  for await (const chunk of getHeapSnapshot()) text += chunk;
  const snapshot = JSON.parse(text) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [type, size] = [fields.indexOf("type"), fields.indexOf("self_size")];
  let held = 0;
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const bytes = snapshot.nodes[i + size]!;
    if (types[snapshot.nodes[i + type]!]!.endsWith("string") && bytes >= MiB && bytes < 2 * MiB) held += bytes;
  }
  return held;
}
