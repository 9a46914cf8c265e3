/**
 * `mcpmock serve f.json --watch`, as a user runs it: the built command serves a file in a
 * temporary folder while an SDK v1 client stays connected. Saving a change changes the next
 * answer without a restart; an edit with mistakes prints every one and the old definition
 * keeps answering; a new declaration reaches the client as `list_changed`; the journal keeps
 * the calls from before the reloads; SIGTERM stops the watcher and the process exits 0.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { CLI, ROOT } from "./support/build.js";
import { Waiters } from "./support/waiters.js";
import { McpMock } from "../src/index.js";
import { watchDefinition, WATCH_DEBOUNCE_MS } from "../src/cli/watch.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-watch-"));
const file = join(dir, "design.mock.json");

function design(temp: number, extra: { tools?: object[]; responses?: object[] } = {}): string {
  return JSON.stringify({
    tools: [{ name: "get_weather", inputSchema: { type: "object", properties: { city: { type: "string" } } } }, ...(extra.tools ?? [])],
    responses: [{ tool: "get_weather", args: { city: "Seoul" }, result: { temp } }, ...(extra.responses ?? [])],
  });
}

/** An editor's atomic save: a new file renamed over the old one. */
function save(text: string): void {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

writeFileSync(file, design(21));
const child = spawn(process.execPath, [CLI, "serve", file, "--watch"], { cwd: ROOT, stdio: "pipe" });
const out = { stdout: "", stderr: "" };
const waiters = new Waiters();
child.stdout.setEncoding("utf8").on("data", (c: string) => ((out.stdout += c), waiters.wake()));
child.stderr.setEncoding("utf8").on("data", (c: string) => ((out.stderr += c), waiters.wake()));
const exited = new Promise<number | string | null>((resolve) => child.once("close", (code, signal) => resolve(code ?? signal)));

function waitFor(stream: "stdout" | "stderr", text: string, timeoutMs = 5000): Promise<string> {
  return waiters.until(
    () => (out[stream].includes(text) ? out[stream] : undefined),
    timeoutMs,
    () => `no ${JSON.stringify(text)} on ${stream}; stdout: ${out.stdout}\nstderr: ${out.stderr}`,
  );
}

const client = new Client({ name: "watch-test", version: "1.0.0" });
const notes: string[] = [];
client.fallbackNotificationHandler = async (n) => void notes.push(n.method);
let url = "";

const weather = async (): Promise<unknown> => (await client.callTool({ name: "get_weather", arguments: { city: "Seoul" } })).content;

beforeAll(async () => {
  await waitFor("stdout", "watching");
  url = /at (http:\/\/\S+\/mcp)\n/.exec(out.stdout)?.[1] ?? "";
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
}, 15_000);

afterAll(async () => {
  await client.close();
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

test("a saved change is the next answer, without a restart, and sends no list_changed when no declaration changed", async () => {
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":21}' }]);
  save(design(22));
  await waitFor("stdout", "reloaded");
  expect(out.stdout).toContain(`[mcpmock] reloaded ${file}: 1 stub\n`);
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":22}' }]);
  expect(notes).toEqual([]);
});

test("an edit with mistakes prints every one, and the last good definition keeps answering", async () => {
  save(JSON.stringify({ tools: [{ name: "get_weather" }], responses: [{ tool: "get_wether", result: 1 }, { tool: "get_weather", args: { city: "Seoul" } }] }));
  const stderr = await waitFor("stderr", "still serving the last good definition");
  expect(stderr).toContain("responses[0].tool");
  expect(stderr).toContain('"get_wether" is not in tools');
  expect(stderr).toContain("responses[1]");
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":22}' }]);
  // Half-written JSON too: its line and column, and the old answer still.
  out.stderr = "";
  save('{ "tools": [ { "name": "get_weather" } ],\n  "responses": [ { "tool": "get_weather", ');
  expect(await waitFor("stderr", "still serving")).toMatch(/line 2, column \d+/);
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":22}' }]);
});

test("a new declaration reaches the connected client as tools/list_changed, and answers", async () => {
  out.stdout = "";
  save(design(23, { tools: [{ name: "add", inputSchema: { type: "object" } }], responses: [{ tool: "add", result: { sum: 3 } }] }));
  await waitFor("stdout", "reloaded");
  expect(out.stdout).toContain("2 stubs; tools changed: add (clients told with list_changed)");
  await expect.poll(() => notes, { timeout: 5000 }).toEqual(["notifications/tools/list_changed"]);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["get_weather", "add"]);
  expect((await client.callTool({ name: "add", arguments: {} })).content).toEqual([{ type: "text", text: '{"sum":3}' }]);
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":23}' }]);
});

test("a change to what is read at start only (server, options) is served as far as it can be, and the restart it needs is said", async () => {
  out.stdout = "";
  save(JSON.stringify({ ...JSON.parse(design(23, { tools: [{ name: "add", inputSchema: { type: "object" } }], responses: [{ tool: "add", result: { sum: 3 } }] })), server: { name: "renamed", version: "2.0.0" } }));
  await waitFor("stdout", "reloaded");
  expect(out.stdout).toContain('2 stubs; "server" changed too, which is read at start only: restart mcpmock to apply it\n');
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":23}' }]);
});

test("the journal keeps the calls from before every reload", async () => {
  const requests = (await (await fetch(url.replace(/\/mcp$/, "/__admin/requests"))).json()) as Array<{ method: string; params?: { name?: string }; answer?: { result?: { content?: unknown } } }>;
  const calls = requests.filter((r) => r.method === "tools/call");
  expect(calls.map((r) => r.params?.name)).toEqual(["get_weather", "get_weather", "get_weather", "get_weather", "add", "get_weather", "get_weather"]);
  expect(calls.map((r) => r.answer?.result?.content)).toEqual([21, 22, 22, 22, undefined, 23, 23].map((temp) => (temp === undefined ? [{ type: "text", text: '{"sum":3}' }] : [{ type: "text", text: `{"temp":${temp}}` }])));
  expect(requests[0]?.method).toBe("initialize");
});

test("POST /__admin/reset goes back to the reloaded definition, not the one the server started with", async () => {
  expect((await fetch(url.replace(/\/mcp$/, "/__admin/reset"), { method: "POST" })).status).toBe(204);
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":23}' }]);
  expect((await client.callTool({ name: "add", arguments: {} })).content).toEqual([{ type: "text", text: '{"sum":3}' }]);
});

// Before, a deleted file was passed over without a word, and one re-created with the same text
// was not read again either.
test("a deleted file is said once and the last good definition keeps answering; re-created, it is read again", async () => {
  const text = readFileSync(file, "utf8");
  out.stderr = "";
  out.stdout = "";
  rmSync(file);
  await waitFor("stderr", "is gone");
  expect(out.stderr).toBe(`[mcpmock] ${file} is gone (or cannot be read); still serving the last good definition. Save it again to reload.\n`);
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":23}' }]);
  save(text);
  await waitFor("stdout", "reloaded");
  expect(await weather()).toEqual([{ type: "text", text: '{"temp":23}' }]);
});

test("SIGTERM stops the watcher with the server: the process exits 0", async () => {
  await client.close();
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
});

test("in process: the function watchDefinition returns stops the watcher (no fs handle left) and later saves change nothing", async () => {
  const own = mkdtempSync(join(tmpdir(), "mcpmock-watch-own-"));
  const path = join(own, "d.json");
  writeFileSync(path, design(30));
  await using mock = await McpMock.fromDefinition(path, { transport: "none" });
  const watchers = (): number => process.getActiveResourcesInfo().filter((r) => r === "FSEventWrap").length;
  const before = watchers();
  const lines: string[] = [];
  const stop = watchDefinition(path, mock, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
  expect(watchers()).toBe(before + 1);
  writeFileSync(path, design(31));
  await expect.poll(() => lines, { timeout: 5000 }).toEqual([`[mcpmock] reloaded ${path}: 1 stub`]);
  stop();
  await expect.poll(watchers, { timeout: 5000 }).toBe(before);
  writeFileSync(path, design(32));
  await new Promise((resolve) => setTimeout(resolve, WATCH_DEBOUNCE_MS * 3));
  expect(lines).toHaveLength(1);
  expect(mock.stubs().filter((s) => s.source !== "default").map((s) => s.sentence)).toEqual(['tools/call "get_weather" with arguments equal to {"city":"Seoul"} → {"temp":31} (seen 0)']);
  rmSync(own, { recursive: true, force: true });
});
