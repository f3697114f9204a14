// Runs in Node once before the end-to-end files: installs the agents' CLIs (./agent-clis.ts) a
// single time. Left to the files, each agent file's beforeAll ran its own 850 MB `npm install` at
// the same moment on a machine that had none (CI's), racing on npm's cache; one that lost failed
// its file's hook and skipped its tests.
import { agentBinDir } from "./agent-clis.ts";

export default async function setup(): Promise<void> {
  await agentBinDir();
}
