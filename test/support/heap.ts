/**
 * The heap in use after full collections, for tests that bound what a run of requests leaves
 * behind. `gc` is exposed through the V8 flag here only (Node 20 allows it at run time).
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** `process.memoryUsage().heapUsed` after three full collections. */
export function heapAfterGc(): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}
