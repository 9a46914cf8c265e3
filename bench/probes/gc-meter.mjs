// Loaded with --import into a bench server by bench/idle.ts: on SIGUSR2 it writes one line to
// stderr with the collections since the last line and the new space's size now.
import { PerformanceObserver, constants } from "node:perf_hooks";
import v8 from "node:v8";

let minor = 0;
let major = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    else major++;
  }
}).observe({ entryTypes: ["gc"] });
process.on("SIGUSR2", () => {
  const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  process.stderr.write(`GC-METER ${minor} ${major} ${newSpace ? newSpace.space_size : 0}\n`);
  minor = 0;
  major = 0;
});
