/**
 * What `import "mcpmock"` loads: a mock that neither proxies nor checks a JWT starts without
 * jose (about 55 ms of a cold start), the SDK's client or mcpmock's upstream code, and with Hono
 * and its Node adapter inside mcpmock's own chunks (Node's loader takes about 15 ms for their
 * 35 modules one by one, 1 ms as part of a chunk), in a handful of files. A child
 * process imports the built package with a module hook that lists every file it loads, serves
 * one stubbed call and closes; the list is then read.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const HOOK = `data:text/javascript,${encodeURIComponent('export async function load(url, context, next) { if (url.startsWith("file:")) process.stderr.write("LOADED " + url + "\\n"); return next(url, context); }')}`;
const PROGRAM = `
import { register } from "node:module";
register(${JSON.stringify(HOOK)});
const { McpMock } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
const mock = await McpMock.start({ tools: [{ name: "add" }], sessions: "stateless" });
mock.toolsCall("add").respondsWith({ sum: 3 });
const response = await fetch(mock.url, { method: "POST", headers: { accept: "application/json, text/event-stream", "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add", arguments: {} } }) });
process.stdout.write(await response.text());
await mock.close();
`;

test("a plain mock's cold start loads a few chunks: neither jose, nor the SDK's client, nor the upstream code, nor Hono's modules one by one", () => {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", PROGRAM], { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("sum");
  const loaded = run.stderr.split("\n").filter((l) => l.startsWith("LOADED ")).map((l) => l.slice("LOADED ".length).replace(/^file:\/\/.*?\/(node_modules|dist)\//, "$1/"));
  expect(loaded).toContain("dist/index.js");
  expect(loaded.filter((url) => /node_modules\/(jose|hono|@hono)\/|node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/client\//.test(url))).toEqual([]);
  expect(loaded.length).toBeLessThanOrEqual(8);
  // Chunks are named for the folder most of their code comes from, which moves as code does:
  // look for the code itself.
  // The marker must be in dist/ somewhere, or a rename would make this check pass on anything.
  const upstreamCode = /function startUpstream\(/;
  expect(readdirSync(`${ROOT}dist`).filter((file) => file.endsWith(".js") && upstreamCode.test(readFileSync(`${ROOT}dist/${file}`, "utf8")))).not.toEqual([]);
  const ours = loaded.filter((file) => file.startsWith("dist/")).map((file) => [file, readFileSync(`${ROOT}${file}`, "utf8")] as const);
  expect(ours.filter(([, code]) => upstreamCode.test(code)).map(([file]) => file)).toEqual([]);
  // ASCII only (scripts/build.mjs escapes what esbuild leaves in comments): one other character
  // and V8 holds the whole chunk's source at two bytes per character.
  expect(ours.filter(([, code]) => /[^\x00-\x7f]/.test(code)).map(([file]) => file)).toEqual([]);
});
