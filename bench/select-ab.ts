/**
 * `npx tsx bench/select-ab.ts <src> <src>`: the registry's part of a call (candidates, then the
 * first match) for a tool with one stub (exact, a wildcard inside, containing) and with 10,000
 * wildcard stubs, in CPU ns per call, source trees side by side in alternating rounds: the hot
 * path's before/after on a noisy machine, without a transport. The base's tree, for example:
 *
 *   mkdir -p .ab-before && git archive <base> src | tar -x -C .ab-before
 *   ONLY=exact,wildcard,containing N=100000 ROUNDS=21 npx tsx bench/select-ab.ts ./.ab-before/src ./src
 */
const N = Number(process.env["N"] ?? 300_000);
const ROUNDS = Number(process.env["ROUNDS"] ?? 7);
interface Build {
  readonly name: string;
  readonly StubRegistry: new () => { add(stub: unknown): unknown; candidates(call: unknown, key: string | undefined): readonly { stub: { matchers: unknown[] } }[] };
  readonly McpCall: new (init: Record<string, unknown>) => unknown;
  readonly matchesAll: (matchers: unknown[], call: unknown) => boolean;
  readonly argsEqual: (v: unknown) => unknown;
  readonly argsContaining: (v: unknown) => unknown;
  readonly ANY: unknown;
}
const builds: Build[] = [];
for (const dir of process.argv.slice(2)) {
  const at = (file: string): string => new URL(`${dir.replace(/\/$/, "")}/${file.replace(/\.js$/, ".ts")}`, `file://${process.cwd()}/`).href;
  const [registry, call, matchers, any] = await Promise.all([import(at("stubs/registry.js")), import(at("stubs/call.js")), import(at("stubs/matchers.js")), import(at("values/any.js"))]);
  builds.push({ name: dir, StubRegistry: registry.StubRegistry, McpCall: call.McpCall, matchesAll: matchers.matchesAll, argsEqual: matchers.argsEqual, argsContaining: matchers.argsContaining, ANY: any.ANY });
}
type Kind = "exact" | "wildcard" | "containing" | "10,000 wildcard";
const KINDS = (["exact", "wildcard", "containing", "10,000 wildcard"] as Kind[]).filter((k) => process.env["ONLY"] === undefined || process.env["ONLY"].split(",").includes(k));
const results = new Map<string, number[]>();
function run(b: Build, kind: Kind): number {
  const registry = new b.StubRegistry();
  const count = kind === "10,000 wildcard" ? 10_000 : 1;
  for (let i = 0; i < count; i++) {
    const q = `query ${i}`;
    const matcher = kind === "exact" ? b.argsEqual({ q, page: 1, id: "r" }) : kind === "containing" ? b.argsContaining({ q, page: 1 }) : b.argsEqual({ q, page: 1, id: b.ANY });
    registry.add({ id: `s${i}`, method: "tools/call", key: "search", priority: 0, matchers: [matcher], responses: [] });
  }
  const q = `query ${Math.floor(count / 2)}`;
  const n = kind === "10,000 wildcard" ? N / 10 : N;
  const calls = Array.from({ length: 64 }, (_, i) => new b.McpCall({ method: "tools/call", params: { name: "search", arguments: { q, page: 1, id: "r" } }, id: i, sessionId: undefined, headers: {}, protocolVersion: "2025-11-25", body: "", transport: "memory" }));
  const t0 = process.cpuUsage();
  let found = 0;
  for (let i = 0; i < n; i++) {
    // A fresh call each time would measure allocation; a few reused ones keep their cached argsKey, as a call does.
    const call = calls[i & 63];
    for (const e of registry.candidates(call, "search")) if (b.matchesAll(e.stub.matchers, call)) { found++; break; }
  }
  if (found !== n) throw new Error(`${b.name} ${kind}: matched ${found} of ${n}`);
  const used = process.cpuUsage(t0);
  return ((used.user + used.system) * 1000) / n;
}
for (const b of builds) for (const k of KINDS) run(b, k); // warm up
for (let r = 0; r < ROUNDS; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) for (const k of KINDS) {
    const key = `${k}\u0000${b.name}`;
    results.set(key, [...(results.get(key) ?? []), run(b, k)]);
  }
}
const median = (xs: number[]): number => [...xs].sort((a, c) => a - c)[Math.floor(xs.length / 2)] as number;
for (const k of KINDS) {
  const first = median(results.get(`${k}\u0000${builds[0]?.name}`) ?? []);
  for (const b of builds) {
    const xs = results.get(`${k}\u0000${b.name}`) ?? [];
    process.stdout.write(`${k.padEnd(16)} ${b.name.padEnd(40)} median ${median(xs).toFixed(0).padStart(8)} ns/call (${(median(xs) / first).toFixed(2)}x first), min ${Math.min(...xs).toFixed(0)}\n`);
  }
}
