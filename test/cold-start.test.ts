/**
 * What `import "mcpmock"` loads: a mock that neither proxies nor checks a JWT starts without
 * jose (about 55 ms of a cold start), the SDK's client or mcpmock's upstream code. A child
 * process imports the built package with a module hook that lists every file it loads, serves
 * one stubbed call and closes; the list is then read.
 */
import { spawnSync } from "node:child_process";
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

test("a plain mock's cold start loads neither jose, nor the SDK's client, nor the upstream code", () => {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", PROGRAM], { cwd: ROOT, encoding: "utf8", timeout: 30_000 });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout).toContain("sum");
  const loaded = run.stderr.split("\n").filter((l) => l.startsWith("LOADED ")).map((l) => l.slice("LOADED ".length).replace(/^file:\/\/.*?\/(node_modules|dist)\//, "$1/"));
  expect(loaded).toContain("dist/index.js");
  expect(loaded.filter((url) => /node_modules\/jose\/|node_modules\/@modelcontextprotocol\/sdk\/dist\/esm\/client\/|dist\/chunk-upstream/.test(url))).toEqual([]);
});
