/**
 * `npx tsx bench/pattern-stubs.ts`: the cost of a tools/call with 1, 10 and 10,000 pattern
 * stubs on one tool (what a recording with `--ignore` pointers writes: exact fields and one
 * wildcard, `withArgs({ q, page, id: ANY })`; and `withArgsMatching({ q, page })`), over the
 * in-memory transport, so the figure is the pipeline's. Rounds alternate the mocks; each
 * figure is the median µs per call. Issue 33: 10,000 such stubs within 3x of one.
 *
 *   npx tsx bench/pattern-stubs.ts            # CALLS=3000 ROUNDS=5
 *   npx tsx bench/pattern-stubs.ts ../base/dist/index.js ./dist/index.js   # side by side, same rounds
 */
import { pathToFileURL } from "node:url";
import type { ANY as AnyValue, McpMock } from "../src/index.js";
type MemoryClientTransport = ReturnType<McpMock["clientTransport"]>;

/** A build of mcpmock to measure: its path and what it exports. */
export interface Build {
  readonly name: string;
  readonly McpMock: typeof McpMock;
  readonly ANY: typeof AnyValue;
}

/** What the stubs match: exact fields and one wildcard, the fields alone (`withArgsMatching`), or exact fields only. */
export type PatternKind = "wildcard" | "matching" | "exact";

/** A mock with `count` pattern stubs on the tool "search", its in-memory client, and what each call sends. */
export interface Case {
  readonly name: string;
  readonly mock: McpMock;
  readonly client: MemoryClientTransport;
  readonly args: Record<string, unknown>;
  /** The µs per call of each round timed. */
  readonly us: number[];
}

/** A mock with `count` stubs of `kind` on one tool, its client started; calls match the stub in the middle. */
export async function prepare(build: Build, name: string, count: number, kind: PatternKind): Promise<Case> {
  const { McpMock, ANY } = build;
  const mock = await McpMock.start({ transport: "none", tools: [{ name: "search" }], onUnmatched: "silent" });
  for (let i = 0; i < count; i++) {
    const q = `query ${i}`;
    if (kind === "wildcard") mock.toolsCall("search").withArgs({ q, page: 1, id: ANY }).respondsWith(`hit ${i}`);
    else if (kind === "matching") mock.toolsCall("search").withArgsMatching({ q, page: 1 }).respondsWith(`hit ${i}`);
    else mock.toolsCall("search").withArgs({ q, page: 1, id: "r" }).respondsWith(`hit ${i}`);
  }
  const client = mock.clientTransport();
  await client.start();
  const target = Math.floor(count / 2);
  return { name, mock, client, args: { q: `query ${target}`, page: 1, id: "r" }, us: [] };
}

/** `calls` tools/calls one after the other; their µs per call is added to `c.us` (and returned). */
export async function round(c: Case, calls: number): Promise<number> {
  let pending: (() => void) | undefined;
  c.client.onmessage = () => pending?.();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) {
    const answered = new Promise<void>((resolve) => (pending = resolve));
    await c.client.send({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "search", arguments: c.args } });
    await answered;
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000 / calls;
  c.us.push(us);
  return us;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

const KINDS = [
  ["1 wildcard stub", 1, "wildcard"],
  ["10 wildcard stubs", 10, "wildcard"],
  ["10,000 wildcard stubs", 10_000, "wildcard"],
  ["1 matching stub", 1, "matching"],
  ["10,000 matching stubs", 10_000, "matching"],
  ["1 exact stub", 1, "exact"],
  ["10,000 exact stubs", 10_000, "exact"],
] as const;

async function main(): Promise<void> {
  const builds: Build[] = [];
  for (const path of process.argv.length > 2 ? process.argv.slice(2) : ["../src/index.js"]) {
    const url = path.startsWith(".") && !path.startsWith("../src") ? new URL(path, `file://${process.cwd()}/`).href : path;
    builds.push({ name: path, ...((await import(url)) as Omit<Build, "name">) });
  }
  const CALLS = Number(process.env["CALLS"] ?? 3000);
  const ROUNDS = Number(process.env["ROUNDS"] ?? 5);
  const only = process.env["ONLY"];
  const cases: Case[] = [];
  for (const build of builds) {
    for (const [name, count, kind] of KINDS) if (only === undefined || name.includes(only)) cases.push(await prepare(build, builds.length > 1 ? `${build.name} ${name}` : name, count, kind));
  }
  for (const c of cases) await round(c, CALLS); // warm up
  for (const c of cases) c.us.length = 0;
  for (let r = 0; r < ROUNDS; r++) for (const c of r % 2 ? [...cases].reverse() : cases) await round(c, CALLS);
  const base = (c: Case, name: string): number => median((cases.find((o) => o.name === c.name.replace(/\S+ (wildcard|matching|exact) stubs?$/, name)) ?? c).us);
  for (const c of cases) {
    const one = base(c, c.name.includes("wildcard") ? "1 wildcard stub" : c.name.includes("matching") ? "1 matching stub" : "1 exact stub");
    process.stdout.write(`${c.name.padEnd(24)} ${median(c.us).toFixed(1).padStart(8)} µs/call  (${(median(c.us) / one).toFixed(2)}x one)  [${c.us.map((v) => v.toFixed(1)).join(", ")}]\n`);
  }
  for (const c of cases) await c.mock.close();
}

// Run as a script; imported (bench/stress-round3.ts), it only lends prepare() and round().
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
