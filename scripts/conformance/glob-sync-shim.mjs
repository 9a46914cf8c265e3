// `node --import ./scripts/conformance/glob-sync-shim.mjs`: the conformance suite's bundle
// imports `globSync` from "fs" (Node 22). On Node 20 a resolve hook points that bundle's "fs"
// at a facade that adds it; on Node 22 and later nothing changes.
import fs from "node:fs";
import { register } from "node:module";

if (typeof fs.globSync !== "function") register("./glob-sync-hooks.mjs", import.meta.url);
