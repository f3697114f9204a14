// Runs one contender on one scenario many times, for a CPU profile:
// node --cpu-prof bench/profile.ts <contender> <scenario-substring> [runs]
// contender: floor | floor-array | for-await | off | on | early | early-on (early validation, partial arguments off or on)
import { floor, floorOfArray, ours, oursForAwait, type Contender } from "./contenders.ts";
import { benchScenarios, scenarioChunks } from "./scenarios.ts";

const [which = "off", filter = "", runs = "20"] = process.argv.slice(2);
const contender: Contender =
  which === "floor"
    ? floor
    : which === "floor-array"
      ? floorOfArray
      : which === "for-await"
        ? oursForAwait
        : ours(which === "on" || which === "early-on", which.startsWith("early"));
const scenario = benchScenarios(false).find((s) => s.name.includes(filter));
if (!scenario) throw new Error(`no scenario matches ${filter}`);
const chunks = scenarioChunks(scenario);
const start = performance.now();
for (let i = 0; i < Number(runs); i++) await contender(chunks, scenario.body.framing);
console.log(`${scenario.name} ${which}: ${((performance.now() - start) / Number(runs)).toFixed(2)} ms per run`);
