/**
 * Bench plumbing: servers as child processes (so their CPU time can be read from /proc),
 * load from autocannon in this process, medians and ratios.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import os from "node:os";
import autocannon from "autocannon";

export const ROOT = new URL("..", import.meta.url).pathname;

export interface Running {
  readonly name: string;
  readonly url: string;
  readonly proc: ChildProcess;
  /** SIGTERM, then SIGKILL after `graceMs` (3 s; a server under valgrind needs far longer to write its counts). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Where the servers and the load generator run. Pinned (`pin()`), every server started after it
 * runs on the last core and this process (autocannon's load) on the first, as a fair bench on a
 * shared machine does: the load generator never takes a server's core, and a server's CPU per
 * call no longer depends on where the scheduler happened to put it. On one core nothing is pinned.
 */
let serverCore: number | undefined;

/** Pins this process to core 0 and the servers started from now on to the last core; false where that cannot be done. */
export function pin(): boolean {
  const cores = os.cpus().length;
  if (cores < 2) return false;
  try {
    execFileSync("taskset", ["-a", "-p", "-c", "0", String(process.pid)], { stdio: "ignore" });
  } catch {
    return false;
  }
  serverCore = cores - 1;
  return true;
}

/** Starts a server process (on the servers' core when pinned) and waits for its `READY <url>` line. */
export function startServer(name: string, command: string, args: string[], ready?: (proc: ChildProcess) => Promise<string>): Promise<Running> {
  // taskset execs the command in its own process, so proc.pid is the server's.
  const proc = serverCore === undefined ? spawn(command, args, { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] }) : spawn("taskset", ["-c", String(serverCore), command, ...args], { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  proc.stderr?.on("data", (c: Buffer) => (stderr += String(c)));
  const stop = async (graceMs = 3000): Promise<void> => {
    if (proc.exitCode !== null) return;
    proc.kill("SIGTERM");
    await new Promise((r) => {
      const t = setTimeout(() => (proc.kill("SIGKILL"), r(undefined)), graceMs);
      proc.once("exit", () => (clearTimeout(t), r(undefined)));
    });
  };
  const url = ready
    ? ready(proc)
    : new Promise<string>((resolve, reject) => {
        let out = "";
        proc.stdout?.on("data", (c: Buffer) => {
          out += String(c);
          const m = /READY (\S+)/.exec(out);
          if (m) resolve(m[1] as string);
        });
        proc.once("exit", (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
      });
  return url.then((u) => ({ name, url: u, proc, stop }));
}

/**
 * CPU time of a process (all its threads, user and system) in ms: the run time the scheduler
 * counted in nanoseconds (/proc/<pid>/task/<tid>/schedstat), not /proc/<pid>/stat's 10 ms ticks,
 * so a run of half a second is measured to well under 1%.
 */
export function cpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ns / 1e6;
}

/** CPU time of a process's main thread alone in ms (what a CPU profile samples), as {@link cpuMs} reads it. */
export function mainThreadMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
}

/** Resident memory of a process in MiB. */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A tools/call; autocannon puts a fresh id in place of [<id>] for every request, as a real client would. */
export const CALL = JSON.stringify({ jsonrpc: "2.0", id: "[<id>]", method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } });
export const MCP_HEADERS = { accept: "application/json, text/event-stream", "content-type": "application/json" };

/** Initializes a session (for stateful servers); the headers later requests carry. */
export async function openSession(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, {
    method: "POST",
    headers: MCP_HEADERS,
    body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "bench", version: "1" } } }),
  });
  await init.text();
  const session = init.headers.get("mcp-session-id");
  const headers: Record<string, string> = { ...MCP_HEADERS, "mcp-protocol-version": "2025-11-25", ...(session ? { "mcp-session-id": session } : {}) };
  await (await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) })).text();
  return headers;
}

export interface LoadResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50: number;
  /** Non-2xx answers, socket errors, timeouts and answers that failed {@link LoadOptions.check}. */
  readonly errors: number;
  /** Of `errors`, the answers that came back 2xx but were not the expected JSON-RPC result. */
  readonly mismatches: number;
  readonly cpuUsPerRequest: number;
  /** The CPU per request of the processes given as `also` (an upstream behind the server), in their order. */
  readonly alsoCpuUsPerRequest: readonly number[];
}

/** A load's shape: `connections` at once, for `duration` s or `amount` calls; `also`, other processes whose CPU to read over the same run. */
export interface LoadOptions {
  readonly connections: number;
  readonly duration?: number;
  readonly amount?: number;
  readonly body?: string;
  readonly also?: readonly Running[];
  /** What every answer is checked against (by default {@link isResult}); false for a load whose answers are not checked. */
  readonly check?: ((body: string) => boolean) | false;
}

/**
 * Whether an HTTP answer body is a JSON-RPC success for a bench call: JSON or one SSE event, the
 * answer to a request (its id not the unreplaced `[<id>]`) with a result holding content, and no
 * error. Every measured answer is checked: a server that answers errors, or the wrong thing, under
 * load would otherwise be timed as fast and counted as a success (autocannon counts only non-2xx).
 */
export function isResult(body: string): boolean {
  let text = body;
  if (text.startsWith("event:") || text.startsWith("data:") || text.startsWith("id:")) {
    const data = /^data: ?(.*)$/m.exec(text);
    if (!data) return false;
    text = data[1] as string;
  }
  try {
    const message = JSON.parse(text) as { jsonrpc?: unknown; id?: unknown; result?: { content?: unknown }; error?: unknown };
    return message.jsonrpc === "2.0" && message.error === undefined && message.id !== undefined && message.id !== "[<id>]" && Array.isArray(message.result?.content);
  } catch {
    return false;
  }
}

/** When each server's last load ended (performance.now()), for {@link steadyLoad}. */
const lastLoadEnd = new WeakMap<Running, number>();

/** The calls that warm a server right after it starts (JIT, the young generation grown to its working size). */
export const WARM_CALLS = 5000;

/**
 * After this long without calls, V8 shrinks an idle server's young generation (the memory
 * reducer, about 8 s after its last full collection; `npm run bench:idle` shows it), and the
 * server then pays several times the scavenges per call until it has grown back: a server idle
 * longer than this is warmed again before a measured run.
 */
export const IDLE_REWARM_MS = 4000;

/**
 * Warms a server just started: {@link WARM_CALLS} calls at 32 connections, then 2 s more.
 * After 5,000 calls alone a server still runs ~1.2x its steady CPU per call for the next
 * seconds (V8's optimizing tiers and its young generation growing from 1 to 16 MiB take tens
 * of thousands of calls); after both, the first measured run is like the later ones.
 */
export async function warm(server: Running, headers: Record<string, string>, body = CALL): Promise<void> {
  await load(server, headers, { connections: 32, amount: WARM_CALLS, body });
  await load(server, headers, { connections: 32, duration: 2, body });
}

/**
 * A measured load in steady state: a server idle for more than {@link IDLE_REWARM_MS} first
 * takes 2 s of load that is not measured (its young generation grows back, its code is hot),
 * so every run measures the server as it is under load, whatever ran before it.
 */
export async function steadyLoad(server: Running, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  const last = lastLoadEnd.get(server);
  if (last === undefined || performance.now() - last > IDLE_REWARM_MS) await load(server, headers, { connections: options.connections, duration: 2, ...(options.body ? { body: options.body } : {}) });
  return load(server, headers, options);
}

/** Sends tools/call load and measures the server's CPU per request. */
export async function load(server: Running, headers: Record<string, string>, options: LoadOptions): Promise<LoadResult> {
  const pid = server.proc.pid as number;
  const also = (options.also ?? []).map((r) => r.proc.pid as number);
  const alsoBefore = also.map(cpuMs);
  const check = options.check === false ? undefined : (options.check ?? isResult);
  const before = cpuMs(pid);
  const result = await autocannon({
    url: server.url,
    method: "POST",
    headers,
    body: options.body ?? CALL,
    connections: options.connections,
    idReplacement: true,
    ...(check ? { verifyBody: (body: string | Buffer | undefined) => check(String(body ?? "")) } : {}),
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 3 }),
  });
  const cpu = cpuMs(pid) - before;
  const alsoCpu = also.map((p, i) => cpuMs(p) - (alsoBefore[i] as number));
  lastLoadEnd.set(server, performance.now());
  const requests = result.requests.total;
  return {
    requests,
    rps: result.requests.average,
    p50: result.latency.p50,
    errors: result.errors + result.timeouts + result.non2xx + result.mismatches,
    mismatches: result.mismatches,
    cpuUsPerRequest: requests ? (cpu * 1000) / requests : NaN,
    alsoCpuUsPerRequest: alsoCpu.map((c) => (requests ? (c * 1000) / requests : NaN)),
  };
}

/** One POST of `body` (its `[<id>]` replaced by `id`) on `agent`, read to its end. */
function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string, id: number): Promise<void> {
  const text = body.replace("[<id>]", String(id));
  return new Promise<void>((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(text) }, agent }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end(text);
  });
}

/** Latency of sequential calls on one keep-alive connection, in ms (each call timed alone). */
export async function latency(server: Running, headers: Record<string, string>, calls: number, body = CALL): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(server.url);
  const times: number[] = [];
  try {
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await post(agent, url, headers, body, i);
      times.push(performance.now() - t);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

/** `calls` calls over `connections` keep-alive connections at once, each sending its next call when its last is answered. */
export async function closedLoop(server: Running, headers: Record<string, string>, calls: number, connections: number, body = CALL): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const url = new URL(server.url);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) await post(agent, url, headers, body, next++);
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export function range(xs: readonly number[], digits = 1): string {
  return `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
}

/** Rotates a list by `n`, so rounds alternate the order. */
export function rotate<T>(xs: readonly T[], n: number): T[] {
  const k = n % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

/**
 * A fast upstream (bench/servers/fast-upstream.mjs, or the script and arguments UPSTREAM names,
 * on the servers' core, or on the core UPSTREAM_CORE names) when a spec names `@upstream` (a
 * relay's argument: the upstream's URL); undefined when none does.
 */
export async function upstreamFor(specs: readonly string[]): Promise<Running | undefined> {
  if (!specs.some((spec) => spec.split(":").includes("@upstream"))) return undefined;
  const [script, ...args] = (process.env["UPSTREAM"] ?? "bench/servers/fast-upstream.mjs").split(":");
  const upstream = await startServer(`upstream ${script}`, process.execPath, [script as string, ...args]);
  const core = process.env["UPSTREAM_CORE"];
  if (core !== undefined && upstream.proc.pid !== undefined) execFileSync("taskset", ["-a", "-p", "-c", core, String(upstream.proc.pid)], { stdio: "ignore" });
  return upstream;
}

/** A server spec (a script, its arguments after colons) as the script and its arguments, `@upstream` replaced by the upstream's URL. */
export function specArgs(spec: string, upstream?: Running): [string, ...string[]] {
  return spec.split(":").map((a) => {
    if (a !== "@upstream") return a;
    if (!upstream) throw new Error(`${spec}: @upstream, but no upstream was started`);
    return upstream.url;
  }) as [string, ...string[]];
}

/**
 * Whether calls to a bench server (`script` with `args`) need a session first: mcpmock stateful
 * (its default), the SDK server stateful, and a proxying mock (it keeps one, as its clients do).
 */
export function needsSession(script: string, args: readonly string[]): boolean {
  if (script.endsWith("mcpmock.mjs")) return (args[0] ?? "stateful") === "stateful";
  if (script.endsWith("sdk.mjs")) return args[0] === "stateful";
  return script.endsWith("mcpmock-proxy.mjs");
}

/** The headers a bench server's calls carry: a session's when it {@link needsSession}, the plain ones else. */
export async function callHeaders(server: Running, script: string, args: readonly string[]): Promise<Record<string, string>> {
  return needsSession(script, args) ? openSession(server.url) : MCP_HEADERS;
}

/** The collections a metered server ran since the last reading, and its new space's size now. */
export interface GcReading {
  readonly minor: number;
  readonly major: number;
  readonly newSpaceBytes: number;
}

/**
 * Starts a bench server with bench/probes/gc-meter.mjs loaded (after `flags`, V8 flags for it)
 * and returns it with `meter()`, which asks it for a {@link GcReading} (SIGUSR2, a line on stderr).
 */
export async function startMetered(spec: string, flags: readonly string[] = [], upstream?: Running): Promise<{ server: Running; meter: () => Promise<GcReading> }> {
  const [script, ...args] = specArgs(spec, upstream);
  const server = await startServer(spec, process.execPath, ["--import", "./bench/probes/gc-meter.mjs", ...flags, script, ...args]);
  const lines: string[] = [];
  let buffer = "";
  server.proc.stderr?.on("data", (c: Buffer) => {
    buffer += String(c);
    for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
      const line = buffer.slice(0, at);
      buffer = buffer.slice(at + 1);
      if (line.startsWith("GC-METER ")) lines.push(line);
    }
  });
  const meter = async (): Promise<GcReading> => {
    const seen = lines.length;
    server.proc.kill("SIGUSR2");
    while (lines.length === seen) await new Promise((r) => setTimeout(r, 5));
    const [, minor, major, newSpaceBytes] = (lines[seen] as string).split(" ").map(Number) as [number, number, number, number];
    return { minor, major, newSpaceBytes };
  };
  return { server, meter };
}
