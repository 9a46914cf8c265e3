// Runs in the temporary project with `node --test`, against the installed tarball; also checks
// what the exports map lets a user import.
import assert from "node:assert/strict";
import { test } from "node:test";
import { McpMock, toolsCall } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

test("node:test: the installed mock answers the SDK client", async () => {
  const mock = await McpMock.start({ tools: [{ name: "add" }] });
  try {
    mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
    const client = new Client({ name: "node-test-consumer", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    const result = await client.callTool({ name: "add", arguments: { a: 1, b: 2 } });
    assert.deepEqual(result.content, [{ type: "text", text: '{"sum":3}' }]);
    mock.verify(toolsCall("add"), 1);
    await client.close();
  } finally {
    await mock.close();
  }
});

test("the exports map: the public API, schema.json and package.json only", async () => {
  const api = await import("mcpmock");
  assert.equal(typeof api.McpMock.start, "function");
  assert.equal(typeof api.assertMockDefinition, "function");
  const { default: schema } = await import("mcpmock/schema.json", { with: { type: "json" } });
  assert.equal(schema.title, "mcpmock definition");
  const { default: pkg } = await import("mcpmock/package.json", { with: { type: "json" } });
  assert.equal(pkg.name, "mcpmock");
  for (const internal of ["mcpmock/dist/core.js", "mcpmock/dist/mock.js", "mcpmock/dist/cli.js", "mcpmock/src/index.ts", "mcpmock/core"]) {
    await assert.rejects(import(internal), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }, internal);
  }
});

test("the installed package serves the inspector page and its files (GET /__admin/ui)", async () => {
  const mock = await McpMock.start({ admin: true });
  try {
    const base = mock.url.replace(/\/mcp$/, "/__admin/ui");
    const page = await fetch(base);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<title>mcpmock inspector<\/title>/);
    for (const [file, type] of [["inspector.js", "text/javascript"], ["inspector.css", "text/css"]]) {
      const asset = await fetch(`${base}/${file}`);
      assert.equal(asset.status, 200, file);
      assert.match(asset.headers.get("content-type") ?? "", new RegExp(type));
      assert.ok((await asset.text()).length > 1000, file);
    }
  } finally {
    await mock.close();
  }
});
