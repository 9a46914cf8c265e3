/**
 * `npm run bench`: mcpmock side by side with the alternatives, every figure the median of
 * several rounds (order alternating), with its min-max and its ratio to baselines measured
 * in the same run. Load goes to 127.0.0.1 only. `--quick` is a smoke check for CI.
 *
 * The fair figure on a 2-core machine is the server's CPU time per request (user+sys of the
 * server process, from /proc), since the load generator saturates first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { CALL, freePort, latency, load, MCP_HEADERS, median, openSession, pin, range, ROOT, rotate, rssMiB, startServer, steadyLoad, warm, WARM_CALLS, type LoadResult, type Running } from "./lib.js";

const quick = process.argv.includes("--quick");
// --only kinds: the answer-kinds sections alone (3c and 3d), written to bench/results/kinds.md;
// --only proxy: proxy mode's rows alone (3e), written to bench/results/proxy.md;
// --only memory: the resident-memory rows alone (7), written to bench/results/memory.md.
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && only !== "kinds" && only !== "proxy" && only !== "memory") throw new Error(`--only takes "kinds", "proxy" or "memory", not ${JSON.stringify(only)}`);
const ROUNDS = quick ? 1 : 5;
const DURATION = quick ? 1 : 3;
const rows: string[] = [];
const notes: string[] = [];
const node = process.execPath;

function row(scenario: string, subject: string, figure: string, values: number[], unit: string, ratio: string, digits = 1): void {
  rows.push(`| ${scenario} | ${subject} | ${figure} | ${median(values).toFixed(digits)} ${unit} | ${range(values, digits)} | ${ratio} |`);
  process.stdout.write(`${scenario} · ${subject} · ${figure}: ${median(values).toFixed(digits)} ${unit} (${ratio})\n`);
}

function ratio(value: number, base: number, name: string): string {
  return `${(value / base).toFixed(2)}× ${name}`;
}

interface Subject {
  readonly name: string;
  start(): Promise<Running>;
  readonly stateful?: boolean;
  /** What this subject's clients send instead of the measurement's body and headers (a 2026-07-28 request). */
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

/** The bench's tools/call as a 2026-07-28 client sends it: its envelope in `_meta`, its method and name repeated in headers. */
const STATELESS_2026 = {
  body: JSON.stringify({
    jsonrpc: "2.0",
    id: "[<id>]",
    method: "tools/call",
    params: { name: "add", arguments: { a: 1, b: 2 }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
  }),
  headers: { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "add" },
};

const mcpmock = (name: string, args: string[], stateful = false): Subject => ({ name, stateful, start: () => startServer(name, node, ["bench/servers/mcpmock.mjs", ...args]) });
const honoBare: Subject = { name: "Hono (bare)", start: () => startServer("hono", node, ["bench/servers/hono.mjs"]) };

async function wiremock(): Promise<Subject | undefined> {
  const jarDir = `${ROOT}node_modules/wiremock/build`;
  const jar = existsSync(jarDir) ? readdirSync(jarDir).find((f) => f.endsWith(".jar")) : undefined;
  try {
    execFileSync("java", ["-version"], { stdio: "ignore" });
  } catch {
    notes.push("WireMock skipped: no Java runtime on this machine.");
    return undefined;
  }
  if (!jar) {
    notes.push("WireMock skipped: the wiremock package's jar is missing.");
    return undefined;
  }
  return {
    name: "WireMock 3 (standalone)",
    start: async () => {
      const port = await freePort();
      return startServer("wiremock", "java", ["-jar", `${jarDir}/${jar}`, "--port", String(port), "--bind-address", "127.0.0.1", "--disable-banner", "--no-request-journal=false"], async () => {
        const base = `http://127.0.0.1:${port}`;
        for (let i = 0; i < 200; i++) {
          try {
            const r = await fetch(`${base}/__admin/mappings`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({
                request: { method: "POST", url: "/mcp", bodyPatterns: [{ matchesJsonPath: "$[?(@.method == 'tools/call')]" }] },
                response: { status: 200, headers: { "content-type": "application/json" }, jsonBody: { jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: '{"sum":3}' }] } } },
              }),
            });
            if (r.ok) return `${base}/mcp`;
          } catch {
            // not up yet
          }
          await new Promise((r) => setTimeout(r, 100));
        }
        throw new Error("WireMock did not start");
      });
    },
  };
}

/** A started subject: its server and the headers its calls carry. */
interface Started {
  readonly server: Running;
  readonly headers: Record<string, string>;
}

/**
 * Starts subjects one by one, each warmed up (JIT, JVM, its young generation) with
 * WARM_CALLS calls right after it starts. Measured runs then go through steadyLoad, which
 * warms a server again when it sat idle long enough for V8 to shrink its heap, so every figure
 * is the server's steady state under load.
 */
async function startAll(subjects: Subject[], body = CALL): Promise<Map<string, Started>> {
  const running = new Map<string, Started>();
  for (const s of subjects) {
    const server = await s.start();
    const headers = s.headers ?? (s.stateful ? await openSession(server.url) : MCP_HEADERS);
    await warm(server, headers, s.body ?? body);
    running.set(s.name, { server, headers });
  }
  return running;
}

/** Measures subjects at `connections`, rounds alternating their order; returns results per subject. */
async function measure(subjects: Subject[], connections: number, body = CALL): Promise<Map<string, LoadResult[]>> {
  const running = await startAll(subjects, body);
  const results = new Map<string, LoadResult[]>(subjects.map((s) => [s.name, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of rotate(subjects, round)) {
        const r = running.get(s.name) as Started;
        const result = await steadyLoad(r.server, r.headers, { connections, duration: DURATION, body: s.body ?? body });
        if (result.errors) notes.push(`${s.name} at ${connections} connections: ${result.errors} failed or wrong answers in round ${round + 1}; its figures are not to be trusted.`);
        results.get(s.name)?.push(result);
      }
    }
  } finally {
    for (const { server } of running.values()) await server.stop();
  }
  return results;
}

/** A subject's and the baseline's CPU per call in one round. */
interface RoundFigures {
  readonly subject: number;
  readonly base: number;
}

/**
 * Measures each subject beside the baseline, `rounds` times: `round` runs one round of a
 * subject with `run` (one load of `duration` s on a started server). Returns, per subject, its
 * CPU per call and its ratio to the baseline, one of each per round.
 */
async function measureBeside(
  baseline: Subject,
  subjects: Subject[],
  connections: number,
  rounds: number,
  duration: number,
  round: (run: (subject: Subject) => Promise<LoadResult>, subject: Subject) => Promise<RoundFigures>,
): Promise<Map<string, { cpu: number[]; ratios: number[] }>> {
  const running = await startAll([baseline, ...subjects]);
  const run = async (subject: Subject): Promise<LoadResult> => {
    const r = running.get(subject.name) as Started;
    const result = await steadyLoad(r.server, r.headers, { connections, duration, body: subject.body ?? CALL });
    if (result.errors) notes.push(`${subject.name} at ${connections} connections: ${result.errors} failed or wrong answers; its figures are not to be trusted.`);
    return result;
  };
  const out = new Map(subjects.map((s) => [s.name, { cpu: [] as number[], ratios: [] as number[] }]));
  try {
    for (let i = 0; i < rounds; i++) {
      for (const s of subjects) {
        const { subject, base } = await round(run, s);
        out.get(s.name)?.cpu.push(subject);
        out.get(s.name)?.ratios.push(subject / base);
      }
    }
  } finally {
    for (const { server } of running.values()) await server.stop();
  }
  return out;
}

/**
 * Measures each subject beside the baseline in short runs that alternate (baseline, subject,
 * subject, baseline, ...), `pairs` of them per round: the machine's slow drifts (a neighbour's
 * load, clock changes) then fall on both alike, where runs of seconds apart catch different
 * ones. A round's figures are each side's CPU per call summed over the round's runs.
 */
function measurePaired(baseline: Subject, subjects: Subject[], connections: number, rounds: number, pairs: number, duration: number): Promise<Map<string, { cpu: number[]; ratios: number[] }>> {
  return measureBeside(baseline, subjects, connections, rounds, duration, async (run, s) => {
    const sums = { base: { us: 0, calls: 0 }, subject: { us: 0, calls: 0 } };
    for (let pair = 0; pair < pairs; pair++) {
      for (const side of pair % 2 === 0 ? (["base", "subject"] as const) : (["subject", "base"] as const)) {
        const result = await run(side === "base" ? baseline : s);
        sums[side].us += result.cpuUsPerRequest * result.requests;
        sums[side].calls += result.requests;
      }
    }
    return { subject: sums.subject.us / sums.subject.calls, base: sums.base.us / sums.base.calls };
  });
}

/**
 * Measures each subject and the baseline loaded at the same time, `connections` each, in
 * rounds of `duration` s: whatever the machine does then (a neighbour's memory traffic, which
 * moves an HTTP server's CPU per call by 10-20% from one second to the next) falls on both at
 * once, so a round's ratio spreads far less than in alternating runs (Hono beside Hono:
 * 0.95-1.04 in rounds of 3 s, against 0.90-1.10 alternating). Each server has half the load
 * generator, so its figures are not those of a server alone.
 */
function measureAtOnce(baseline: Subject, subjects: Subject[], connections: number, rounds: number, duration: number): Promise<Map<string, { cpu: number[]; ratios: number[] }>> {
  return measureBeside(baseline, subjects, connections, rounds, duration, async (run, s) => {
    const [base, subject] = await Promise.all([run(baseline), run(s)]);
    return { subject: subject.cpuUsPerRequest, base: base.cpuUsPerRequest };
  });
}

/** One measurement of a long-lived probe (bench/probes/answer-kinds-memory.mjs): a line in, its figure out. */
function measureProbe(p: Running): Promise<number> {
  return new Promise((resolve) => {
    p.proc.stdout?.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    p.proc.stdin?.write("\n");
  });
}

function probe(script: string, args: string[] = [], nodeArgs: string[] = []): number {
  return Number(probeOutput(script, args, nodeArgs));
}

function probeJson<T>(script: string, args: string[] = [], nodeArgs: string[] = []): T {
  return JSON.parse(probeOutput(script, args, nodeArgs)) as T;
}

function probeOutput(script: string, args: string[], nodeArgs: string[]): string {
  return execFileSync(node, [...nodeArgs, `bench/probes/${script}`, ...args], { cwd: ROOT, encoding: "utf8" }).trim();
}

/**
 * The relays the mock's part is set beside, in front of each upstream: the floor of any relay
 * written on Node (bare node:http in front, undici behind), and the same relay on the mock's own
 * HTTP stack (Hono on @hono/node-server), the pair that answers "what does the mock add", as bare
 * Hono is for the answer kinds. Each opens a session with its upstream first, as the mock does.
 */
const RELAYS = [
  { name: "bare relay (node:http in, undici out)", script: "bench/servers/undici-relay.mjs", floor: true },
  { name: "bare relay on Hono (the mock's HTTP stack)", script: "bench/servers/hono-relay.mjs", floor: false },
] as const;

/**
 * Proxy mode beside its upstream called directly, in alternating rounds: the mock's CPU per call
 * and the upstream's (both read over the same run), their sum against the upstream's own CPU per
 * direct call, and, in front of a fast upstream, the mock's part against a plain stubbed answer
 * of a mock started the same way (stateful, JSON): a relay is one exchange with the client and
 * one with the upstream, so it should cost about two plain answers.
 */
async function proxyRows(label: string, upstreamArgs: string[], upstreamStateful: boolean): Promise<void> {
  const scenario = `tools/call through proxy mode (${label}), 32 conn`;
  const upstream = await startServer(label, node, upstreamArgs);
  const proxy = await startServer("mcpmock-proxy", node, ["bench/servers/mcpmock-proxy.mjs", upstream.url]);
  const plain = upstreamStateful ? undefined : await startServer("mcpmock", node, ["bench/servers/mcpmock.mjs", "stateful", "json"]);
  const relays: Running[] = [];
  for (const r of RELAYS) relays.push(await startServer(r.name, node, [r.script, upstream.url]));
  try {
    const directHeaders = upstreamStateful ? await openSession(upstream.url) : MCP_HEADERS;
    const proxyHeaders = await openSession(proxy.url);
    const plainHeaders = plain ? await openSession(plain.url) : undefined;
    await warm(upstream, directHeaders);
    await warm(proxy, proxyHeaders);
    if (plain && plainHeaders) await warm(plain, plainHeaders);
    for (const relay of relays) await warm(relay, MCP_HEADERS);
    // Each side of a round: what it loads, and whether the upstream works behind it.
    const sides = [
      { side: "direct", server: upstream, headers: directHeaders, relaying: false },
      { side: "proxy", server: proxy, headers: proxyHeaders, relaying: true },
      ...(plain && plainHeaders ? [{ side: "plain", server: plain, headers: plainHeaders, relaying: false }] : []),
      ...relays.map((server, i) => ({ side: `relay ${i}`, server, headers: MCP_HEADERS, relaying: true })),
    ];
    const f = { direct: [] as number[], mock: [] as number[], behind: [] as number[], ratio: [] as number[], plain: [] as number[], part: [] as number[] };
    const byRelay = relays.map(() => ({ cpu: [] as number[], total: [] as number[], part: [] as number[], mockOver: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      const byRound = new Map<string, LoadResult>();
      for (const { side, server, headers, relaying } of rotate(sides, round)) {
        const result = await steadyLoad(server, headers, { connections: 32, duration: DURATION, ...(relaying ? { also: [upstream] } : {}) });
        if (result.errors) notes.push(`${scenario}, ${side}: ${result.errors} failed or wrong answers in round ${round + 1}; its figures are not to be trusted.`);
        byRound.set(side, result);
      }
      const direct = (byRound.get("direct") as LoadResult).cpuUsPerRequest;
      const proxied = byRound.get("proxy") as LoadResult;
      const mock = proxied.cpuUsPerRequest;
      const behind = proxied.alsoCpuUsPerRequest[0] as number;
      f.direct.push(direct);
      f.mock.push(mock);
      f.behind.push(behind);
      f.ratio.push((mock + behind) / direct);
      const plainCpu = byRound.get("plain")?.cpuUsPerRequest;
      if (plainCpu !== undefined) {
        f.plain.push(plainCpu);
        f.part.push(mock / plainCpu);
      }
      byRelay.forEach((r, i) => {
        const relayed = byRound.get(`relay ${i}`) as LoadResult;
        const cpu = relayed.cpuUsPerRequest;
        r.cpu.push(cpu);
        r.total.push((cpu + (relayed.alsoCpuUsPerRequest[0] as number)) / direct);
        if (plainCpu !== undefined) r.part.push(cpu / plainCpu);
        r.mockOver.push(mock / cpu);
      });
    }
    row(scenario, `${label}, called directly`, "upstream CPU / call", f.direct, "µs", "baseline");
    row(scenario, "mcpmock proxy in front of it", "mock CPU / call", f.mock, "µs", "");
    row(scenario, "the upstream, behind the mock", "upstream CPU / call", f.behind, "µs", ratio(median(f.behind), median(f.direct), "direct"));
    row(scenario, "proxied call, mock + upstream", "CPU / call", f.mock.map((m, i) => m + (f.behind[i] as number)), "µs", `${median(f.ratio).toFixed(2)}× direct (rounds ${range(f.ratio, 2)})`);
    if (plain) {
      row(scenario, "mcpmock stateful, plain stubbed answer", "server CPU / call", f.plain, "µs", "baseline of the mock's part");
      row(scenario, "mcpmock proxy, its own part", "mock CPU / call", f.mock, "µs", `${median(f.part).toFixed(2)}× a plain answer (rounds ${range(f.part, 2)})`);
    }
    byRelay.forEach((r, i) => {
      const { name, floor } = RELAYS[i] as (typeof RELAYS)[number];
      const part = plain ? `${median(r.part).toFixed(2)}× a plain answer (rounds ${range(r.part, 2)})${floor ? ": the floor" : ""}; ` : floor ? "the floor; " : "";
      row(scenario, `${name}, in front of it`, "relay CPU / call", r.cpu, "µs", `${part}the mock's part is ${median(r.mockOver).toFixed(2)}× it (rounds ${range(r.mockOver, 2)}); relay + upstream ${median(r.total).toFixed(2)}× direct (rounds ${range(r.total, 2)})`);
    });
  } finally {
    await proxy.stop();
    await plain?.stop();
    for (const relay of relays) await relay.stop();
    await upstream.stop();
  }
}

async function main(): Promise<void> {
  // The package as published: tsc, then the bundle (scripts/build.mjs).
  execFileSync(node, ["scripts/build.mjs"], { cwd: ROOT, stdio: "inherit" });
  const pinned = !process.argv.includes("--no-pin") && pin();
  notes.push(pinned ? `Pinned: every server runs on core ${os.cpus().length - 1} (mock and upstream together in proxy mode), autocannon's load on core 0 (\`--no-pin\` to let the scheduler place them).` : "Not pinned: servers and load generator go wherever the scheduler puts them.");
  const cpu = (rs: LoadResult[]) => rs.map((r) => r.cpuUsPerRequest);
  notes.push(`Steady state: every server is warmed with ${WARM_CALLS.toLocaleString("en")} calls and 2 s more at 32 connections right after it starts, and with 2 s of load that is not measured before a run whenever it sat idle for more than 4 s (V8 shrinks an idle process's young generation, which then costs several times the scavenges per call until it grows back; \`npm run bench:idle\`).`);

  if (!only) {
    // 1. tools/call, JSON answers, 32 connections: CPU per request against the baselines.
    const subjects: Subject[] = [
      { name: "node:http (bare)", start: () => startServer("node-http", node, ["bench/servers/node-http.mjs"]) },
      { name: "Hono (bare)", start: () => startServer("hono", node, ["bench/servers/hono.mjs"]) },
      mcpmock("mcpmock stateless", ["stateless", "json"]),
      mcpmock("mcpmock stateful", ["stateful", "json"], true),
      { name: "SDK McpServer stateless", start: () => startServer("sdk", node, ["bench/servers/sdk.mjs", "stateless"]) },
      { name: "SDK McpServer stateful", stateful: true, start: () => startServer("sdk", node, ["bench/servers/sdk.mjs", "stateful"]) },
      { name: "mockttp", start: () => startServer("mockttp", node, ["bench/servers/mockttp.mjs"]) },
    ];
    const wm = quick ? undefined : await wiremock();
    if (wm) subjects.push(wm);
    if (quick) notes.push("--quick: WireMock skipped, 1 round of 1 s.");
    const at32 = await measure(subjects, 32);
    const hono = median(cpu(at32.get("Hono (bare)") ?? []));
    const bare = median(cpu(at32.get("node:http (bare)") ?? []));
    const sdkStateful = median(cpu(at32.get("SDK McpServer stateful") ?? []));
    for (const s of subjects) {
      const rs = at32.get(s.name) ?? [];
      const c = median(cpu(rs));
      const ratios = [ratio(c, hono, "Hono"), ratio(c, bare, "node:http")];
      if (s.name.startsWith("mcpmock")) ratios.push(ratio(c, sdkStateful, "SDK stateful"));
      row("tools/call JSON, 32 conn", s.name, "server CPU / call", cpu(rs), "µs", ratios.join(", "));
      row("tools/call JSON, 32 conn", s.name, "calls / s", rs.map((r) => r.rps), "", "", 0);
    }

    // 2. One connection: latency of sequential calls (p50), each subject warmed up first.
    const latencies = new Map<string, number[]>();
    const single: Subject[] = [subjects[1] as Subject, subjects[0] as Subject, subjects[2] as Subject, subjects[3] as Subject];
    const started = new Map<string, Started>();
    for (const s of single) {
      const server = await s.start();
      const headers = s.stateful ? await openSession(server.url) : MCP_HEADERS;
      await latency(server, headers, 500);
      started.set(s.name, { server, headers });
      latencies.set(s.name, []);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of rotate(single, round)) {
        const r = started.get(s.name) as Started;
        latencies.get(s.name)?.push(median(await latency(r.server, r.headers, quick ? 500 : 2000)));
      }
    }
    for (const { server } of started.values()) await server.stop();
    const honoP50 = median(latencies.get("Hono (bare)") ?? []);
    for (const [name, values] of latencies) row("tools/call JSON, 1 conn", name, "p50 latency", values, "ms", ratio(median(values), honoP50, "Hono"), 3);

    // 3. SSE answers.
    const sse = await measure([mcpmock("mcpmock stateless SSE", ["stateless", "sse"]), mcpmock("mcpmock stateless JSON", ["stateless", "json"])], 32);
    const jsonCpu = median(cpu(sse.get("mcpmock stateless JSON") ?? []));
    for (const [name, rs] of sse) row("tools/call SSE vs JSON, 32 conn", name, "server CPU / call", cpu(rs), "µs", ratio(median(cpu(rs)), jsonCpu, "JSON"));

    // 3b. The 2026-07-28 revision against the 2025 stateless mode, each on a mock started the same way (issue 14: within 1.1x).
    const eras = await measure([{ ...mcpmock("mcpmock 2026-07-28", ["stateless", "json"]), ...STATELESS_2026 }, mcpmock("mcpmock 2025 stateless", ["stateless", "json"])], 32);
    const era2025 = median(cpu(eras.get("mcpmock 2025 stateless") ?? []));
    for (const [name, rs] of eras) row("tools/call 2026-07-28 vs 2025 stateless, 32 conn", name, "server CPU / call", cpu(rs), "µs", ratio(median(cpu(rs)), era2025, "2025 stateless"));

  }

  if (!only || only === "proxy") {
    // 3e. Proxy mode: CPU per call of the mock and of the upstream behind it, against calling that upstream directly.
    await proxyRows("SDK McpServer stateful, #2559 fixed", ["bench/servers/sdk.mjs", "stateful", "fix-2559"], true);
    await proxyRows("fast upstream (bare node:http)", ["bench/servers/fast-upstream.mjs"], false);
  }
  if (only === "proxy") return finish();
  if (only === "memory") {
    await rssRows();
    return finish();
  }

  // 3c. Answers that are functions of the call (issue 22): CPU per call against bare Hono, each
  // subject measured beside a run of Hono (see measurePaired); the ratio is the median of the pairs'.
  const kinds: Subject[] = [
    mcpmock("constant, stateless JSON", ["stateless", "json", "1", "tools"]),
    mcpmock("function, stateless JSON", ["stateless", "json", "1", "fn"]),
    mcpmock("placeholder, stateless JSON", ["stateless", "json", "1", "placeholder"]),
    mcpmock("function, stateful JSON", ["stateful", "json", "1", "fn"], true),
  ];
  // Each kind beside the bare server that does the same work: an SSE answer beside Hono's
  // streamSSE writing the same one event (bench/servers/hono-sse.mjs), a 2026-07-28 call beside
  // a Hono app that does the checks that revision asks of any server (its headers against the
  // body, the _meta envelope: bench/servers/hono-2026.mjs).
  const sse = mcpmock("function, stateless SSE", ["stateless", "sse", "1", "fn"]);
  const honoSse: Subject = { name: "Hono streamSSE (bare)", start: () => startServer("hono-sse", node, ["bench/servers/hono-sse.mjs"]) };
  const modern: Subject = { ...mcpmock("function, 2026-07-28", ["stateless", "json", "1", "fn"]), ...STATELESS_2026 };
  const hono2026: Subject = { name: "Hono (2026-07-28 checks)", ...STATELESS_2026, start: () => startServer("hono-2026", node, ["bench/servers/hono-2026.mjs"]) };
  const fairPairs: [baseline: Subject, subjects: Subject[], against: string][] = [
    [honoBare, kinds, "Hono"],
    [honoSse, [sse], "Hono's streamSSE"],
    [hono2026, [modern], "Hono with the 2026 checks"],
  ];
  const [kindRounds, kindPairs, kindRun] = quick ? [1, 2, 0.5] : [7, 2, 1];
  notes.push(`Answer kinds over HTTP: ${kindRounds} rounds; in each, a subject and its bare baseline take turns in ${kindPairs * 2} runs of ${kindRun} s each (${kindPairs} each), and the round's ratio is the subject's CPU per call over the baseline's; "rounds" is the spread of the rounds' ratios.`);
  for (const [baseline, subjects, against] of fairPairs) {
    for (const [name, { cpu: rounds, ratios }] of await measurePaired(baseline, subjects, 32, kindRounds, kindPairs, kindRun)) {
      row("tools/call answer kinds, 32 conn", name, "server CPU / call", rounds, "µs", `${median(ratios).toFixed(2)}× ${against} (rounds ${range(ratios, 2)})`);
    }
  }
  const [atOnceRounds, atOnceRun] = quick ? [1, 0.5] : [6, 3];
  notes.push(`Answer kinds at once: ${atOnceRounds} rounds of ${atOnceRun} s; in each, a subject and its bare baseline are loaded at the same time, 16 connections each, and the round's ratio is the subject's CPU per call over the baseline's.`);
  for (const [baseline, subjects, against] of fairPairs) {
    for (const [name, { cpu: rounds, ratios }] of await measureAtOnce(baseline, subjects, 16, atOnceRounds, atOnceRun)) {
      row("tools/call answer kinds, beside the baseline at once, 16+16 conn", name, "server CPU / call", rounds, "µs", `${median(ratios).toFixed(2)}× ${against} (rounds ${range(ratios, 2)})`);
    }
  }

  // 3d. The same kinds in memory (mock.clientTransport(), raw JSON-RPC messages): the engine
  // with the least around it, each kind in its own process, against the constant answer as the
  // median of per-round ratios (rounds alternate the order).
  const memoryKinds = ["constant", "function", "placeholder", "function-2026"];
  const probes = await Promise.all(memoryKinds.map((kind) => startServer(kind, node, ["bench/probes/answer-kinds-memory.mjs", kind, String(quick ? 2000 : 50_000)])));
  const memoryRounds = new Map<string, number[]>(memoryKinds.map((k) => [k, []]));
  try {
    for (let round = 0; round < (quick ? 2 : 7); round++) {
      for (const [i, p] of rotate(probes.map((p, i) => [i, p] as const), round)) {
        memoryRounds.get(memoryKinds[i] as string)?.push(await measureProbe(p));
      }
    }
  } finally {
    for (const p of probes) await p.stop();
  }
  const constantRounds = memoryRounds.get("constant") ?? [];
  for (const [kind, rounds] of memoryRounds) {
    const ratios = rounds.map((c, i) => c / (constantRounds[i] ?? NaN));
    const name = kind === "function-2026" ? "function, 2026-07-28" : kind;
    row("tools/call answer kinds, in memory", name, "CPU / call", rounds, "µs", kind === "constant" ? "baseline" : `${median(ratios).toFixed(2)}× constant (per-round ${range(ratios, 2)})`, 2);
  }

  if (!only) {
    // 4. A streamed answer of 10,000 notify steps: events per second.
    const streamRates = new Map<string, number[]>([["mcpmock streams()", []], ["Hono streamSSE loop (bare)", []]]);
    const mm = await startServer("mcpmock", node, ["bench/servers/mcpmock.mjs", "stateless", "json", "stream"]);
    const hs = await startServer("hono", node, ["bench/servers/hono.mjs"]);
    try {
      for (let round = 0; round < ROUNDS + 1; round++) {
        for (const [name, url, body] of rotate(
          [
            ["mcpmock streams()", mm.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "stream", arguments: {} } })],
            ["Hono streamSSE loop (bare)", hs.url.replace(/\/mcp$/, "/stream?n=10000"), CALL],
          ] as const,
          round,
        )) {
          const t = performance.now();
          const text = await (await fetch(url, { method: "POST", headers: MCP_HEADERS, body })).text();
          const events = text.split("\n\n").filter((e) => e.includes("data: {")).length;
          if (round > 0) streamRates.get(name)?.push(events / ((performance.now() - t) / 1000));
        }
      }
    } finally {
      await mm.stop();
      await hs.stop();
    }
    const honoRate = median(streamRates.get("Hono streamSSE loop (bare)") ?? []);
    for (const [name, rates] of streamRates) row("stream of 10,000 notify steps", name, "events / s", rates, "", ratio(median(rates), honoRate, "Hono"), 0);

    // 5. Per-call cost with many stubs: indexed, not scanned.
    const counts = quick ? [10, 10_000] : [10, 1_000, 10_000];
    for (const kind of ["tools", "args"] as const) {
      const many = await measure(counts.map((n) => mcpmock(`${n} stubs (distinct ${kind === "tools" ? "tools" : "args"})`, ["stateless", "json", String(n), kind])), 32);
      const base = median(cpu([...many.values()][0] ?? []));
      for (const [name, rs] of many) row("per-call cost vs stub count", name, "server CPU / call", cpu(rs), "µs", ratio(median(cpu(rs)), base, "10 stubs"));
    }

    // 6. Import time; start + first call + close.
    const reps = quick ? 3 : 7;
    const times = (script: string) => Array.from({ length: reps }, () => probe(script));
    const importMcp = times("import-mcpmock.mjs");
    const importHono = times("import-hono.mjs");
    row("cold start", "import mcpmock", "time", importMcp, "ms", ratio(median(importMcp), median(importHono), "hono + node-server"));
    row("cold start", "import hono + @hono/node-server", "time", importHono, "ms", "baseline");
    const lifeMcp = times("lifecycle-mcpmock.mjs");
    const lifeHono = times("lifecycle-hono.mjs");
    row("cold start", "mcpmock start + first call + close", "time", lifeMcp, "ms", ratio(median(lifeMcp), median(lifeHono), "Hono"));
    row("cold start", "Hono serve + first call + close", "time", lifeHono, "ms", "baseline");

    // 7. Memory: RSS after many calls on one session (journal on, capped), and per stub.
    await rssRows();
    const perStub = [probe("stub-memory.mjs", [String(quick ? 2000 : 10000)], ["--expose-gc"])];
    row("memory", "per stub (distinct args)", "heap", perStub.map((b) => b / 1024), "KiB", "");
    const perEntry = [probeJson<{ heap: number; outside: number }>("journal-memory.mjs", [String(quick ? 2000 : 10000)], ["--expose-gc"])];
    row("memory", "per journal entry (tools/call over HTTP)", "heap", perEntry.map((b) => b.heap / 1024), "KiB", "", 2);
    row("memory", "per journal entry (tools/call over HTTP)", "outside the heap", perEntry.map((b) => b.outside / 1024), "KiB", "packed entries", 2);

    // 8. verify() over a full journal.
    const entries = quick ? 2000 : 10_000;
    const verifyMs = Array.from({ length: quick ? 1 : 3 }, () => probeJson<{ first: number; median: number }>("verify-journal.mjs", [String(entries)]));
    row("verification", `verify() over ${entries.toLocaleString("en")} journal entries`, "time", verifyMs.map((v) => v.median), "ms", "", 2);
    row("verification", `first verify() over ${entries.toLocaleString("en")} journal entries`, "time", verifyMs.map((v) => v.first), "ms", "entries unpacked", 2);

    // 9. No port: one tools/call through the SDK client in memory against HTTP, in one process.
    // (--no-warnings: the SDK's HTTP client adds an abort listener per fetch to one signal.)
    const inMemory = JSON.parse(execFileSync(node, ["--no-warnings", "bench/probes/memory-vs-http.mjs", String(quick ? 300 : 2000), String(quick ? 2 : 6)], { cwd: ROOT, encoding: "utf8" })) as Record<"memoryUs" | "httpUs" | "memoryCpuUs" | "httpCpuUs", number[]>;
    const overHttp = median(inMemory.httpUs);
    const overHttpCpu = median(inMemory.httpCpuUs);
    row("tools/call, SDK client in process", "mock.clientTransport() (in memory)", "time / call", inMemory.memoryUs, "µs", ratio(median(inMemory.memoryUs), overHttp, "HTTP"));
    row("tools/call, SDK client in process", "Streamable HTTP (same mock)", "time / call", inMemory.httpUs, "µs", "baseline");
    row("tools/call, SDK client in process", "mock.clientTransport() (in memory)", "CPU / call", inMemory.memoryCpuUs, "µs", ratio(median(inMemory.memoryCpuUs), overHttpCpu, "HTTP"));
    row("tools/call, SDK client in process", "Streamable HTTP (same mock)", "CPU / call", inMemory.httpCpuUs, "µs", "baseline");

  }

  finish();
}

/**
 * Section 7's resident memory: RSS after 100,000 calls on one session (journal on, capped; off;
 * bare Hono), and after 300,000 (journal off; Hono). Two call counts because the first row
 * measures when V8 grows its young generation more than what a server keeps: V8 doubles it
 * (8 to 16 MiB) once the bytes that survived scavenges pass its size, so whatever a server
 * makes before its first call counts (a mock's code, about 1 MB more than Hono's; the stream
 * row's 10,000-step script, which is why only that row's server has it) (docs/performance.md,
 * "Resident memory"). After 300,000 both have grown: what is left is what the mock keeps.
 */
async function rssRows(): Promise<void> {
  const rounds = quick ? 1 : 2;
  const measureRss = async (subjects: Subject[], calls: number): Promise<void> => {
    const rss = new Map<string, number[]>(subjects.map((s) => [s.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const s of rotate(subjects, round)) {
        const server = await s.start();
        const headers = s.stateful ? await openSession(server.url) : MCP_HEADERS;
        await load(server, headers, { connections: 32, amount: calls });
        rss.get(s.name)?.push(rssMiB(server.proc.pid as number));
        await server.stop();
      }
    }
    const honoRss = median(rss.get(honoBare.name) ?? []);
    for (const [name, values] of rss) row(`RSS after ${calls.toLocaleString("en")} calls`, name, "RSS", values, "MiB", ratio(median(values), honoRss, "Hono"));
  };
  const journalOff = mcpmock("mcpmock stateful (journalSize: 0)", ["stateful", "json", "journal=0"], true);
  // The journal's share shows as the difference between the first two rows.
  await measureRss([mcpmock("mcpmock stateful (journal on)", ["stateful", "json"], true), journalOff, honoBare], quick ? 20_000 : 100_000);
  if (!quick) await measureRss([journalOff, honoBare], 300_000);
}

/** Writes the table and the notes to bench/results/ and stdout. */
function finish(): void {
  const cpus = os.cpus();
  const header = [
    `# mcpmock benchmark${quick ? " (quick)" : ""}${only ? ` (--only ${only})` : ""}`,
    "",
    `${new Date().toISOString().slice(0, 10)} · Node ${process.version} · ${cpus.length} × ${cpus[0]?.model ?? "cpu"} · ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB · ${only ? "only one section, see the notes" : `${ROUNDS} round(s) of ${DURATION} s, order alternating`} · load: autocannon on 127.0.0.1`,
    "",
    "| scenario | subject | figure | median | min–max | ratio |",
    "|---|---|---|---|---|---|",
  ];
  const text = [...header, ...rows, "", ...notes.map((n) => `- ${n}`), ""].join("\n");
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  const file = only ? `${only}${quick ? "-quick" : ""}` : quick ? "quick" : "latest";
  writeFileSync(`${ROOT}bench/results/${file}.md`, text);
  process.stdout.write(`\n${text}`);
}

await main();
