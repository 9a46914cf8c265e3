/**
 * MCP Apps in definition files (issue 40): `"apps"` at the top level with a `file` relative to
 * the definition, `"ui"` on a tool; served by `McpMock.fromDefinition` and `mcpmock stdio`,
 * refused by `mcpmock validate`'s check with every mistake at its JSON path, and declared
 * through the admin API's fragments.
 */
import { execFileSync } from "node:child_process";
import { Readable } from "node:stream";
import { mkdtempSync, mkdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpMock, assertMockDefinition, type MockDefinition } from "../../src/index.js";
import { adminApp } from "../../src/admin/admin-api.js";
import { CLI, ROOT } from "../support/build.js";
import { runCli } from "../support/cli-run.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-app-defs-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, "views"));
writeFileSync(join(dir, "views", "weather.html"), "<!doctype html><p>Weather</p>");
const definition: MockDefinition = {
  tools: [{ name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/view.html" } }],
  apps: [{ uri: "ui://weather/view.html", file: "views/weather.html", prefersBorder: true }],
  responses: [{ tool: "show_weather", result: { temperature: 21 } }],
};
const file = join(dir, "weather.mock.json");
writeFileSync(file, JSON.stringify(definition));

describe("apps in definition files", () => {
  test("fromDefinition reads the file beside the definition", async () => {
    await using mock = await McpMock.fromDefinition(file);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    expect((await client.listTools()).tools[0]?._meta).toEqual({ ui: { resourceUri: "ui://weather/view.html" }, "ui/resourceUri": "ui://weather/view.html" });
    expect((await client.readResource({ uri: "ui://weather/view.html" })).contents).toEqual([
      { uri: "ui://weather/view.html", mimeType: "text/html;profile=mcp-app", text: "<!doctype html><p>Weather</p>", _meta: { ui: { prefersBorder: true } } },
    ]);
    await client.close();
  });

  test("mcpmock stdio serves the same app", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "stdio", file], cwd: ROOT, stderr: "pipe" });
    const client = new Client({ name: "t", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } as never });
    await client.connect(transport);
    expect((client.getServerCapabilities() as { extensions?: object }).extensions).toHaveProperty(["io.modelcontextprotocol/ui"]);
    expect((await client.readResource({ uri: "ui://weather/view.html" })).contents[0]).toMatchObject({ text: "<!doctype html><p>Weather</p>" });
    await client.close();
  });

  test("mcpmock stdio serves the probe: its HTML with the View SDK and settings, its _meta, its report tool; --verbose shows the events", async () => {
    const probeFile = join(dir, "probe.mock.json");
    const on = { ready: [{ method: "ui/message", params: { role: "user", content: [{ type: "text", text: "hi" }] } }] };
    writeFileSync(probeFile, JSON.stringify({ tools: [{ name: "show", ui: { resourceUri: "ui://probe/view.html" } }], apps: [{ uri: "ui://probe/view.html", probe: { on }, csp: { resourceDomains: ["https://cdn.example.com"] }, prefersBorder: false }] }));
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "stdio", probeFile, "--verbose"], cwd: ROOT, stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "t", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } as never });
    await client.connect(transport);
    const [view] = (await client.readResource({ uri: "ui://probe/view.html" })).contents as { text: string; mimeType: string; _meta: unknown }[];
    expect(view?.mimeType).toBe("text/html;profile=mcp-app");
    // Over stdio there is no origin to report to directly: the CSP is the declared one, and the settings name no URL.
    expect(view?._meta).toEqual({ ui: { csp: { resourceDomains: ["https://cdn.example.com"] }, prefersBorder: false } });
    expect(view?.text).toContain(`<script type="application/json" id="mcpmock-probe">${JSON.stringify({ app: "ui://probe/view.html", on, reportTool: "mcpmock_probe_report" })}</script>`);
    // The official View class's handshake, bundled in.
    expect(view?.text).toContain('"ui/initialize"');
    expect(view?.text).toContain("ui/notifications/tool-input");
    expect(view?.text.startsWith("<!doctype html>")).toBe(true);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === "mcpmock_probe_report")?._meta).toEqual({ ui: { visibility: ["app"] } });
    const report = await client.callTool({ name: "mcpmock_probe_report", arguments: { app: "ui://probe/view.html", instance: "v", events: [{ seq: 0, from: "host", method: "ui/notifications/tool-input", params: { arguments: {} } }] } });
    expect(report.isError).toBeFalsy();
    await client.close();
    expect(stderr).toContain('[mcpmock] app ui://probe/view.html: host → view ui/notifications/tool-input {"arguments":{}}\n');
  });

  test("every mistake at its JSON path", () => {
    const broken = {
      tools: [{ name: "a", ui: { resourceUri: "ui://nowhere/view.html" } }, { name: "b", ui: { resourceUri: "https://x/view.html" } }],
      apps: [{ uri: "ui://c/view.html", html: "<p>c</p>", csp: { connectDomains: "https://x" } }, { uri: "ui://d/view.html", file: join(dir, "missing.html") }],
    };
    let message = "";
    try {
      assertMockDefinition(broken, "apps.json");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain("Invalid mock definition — apps.json");
    expect(message).toContain("tools[1].ui.resourceUri");
    expect(message).toContain("apps[0].csp.connectDomains");
    expect(message).toContain(`apps[1].file: cannot read`);
    expect(message).toContain(`tools[0].ui.resourceUri: "ui://nowhere/view.html" names no declared app. Declared apps: ui://c/view.html, ui://d/view.html.`);
  });

  test.skipIf(process.platform === "win32")("mcpmock validate refuses an app file (or a skill's) that is a FIFO, a device, a directory or over 16 MiB at once, saying what it is", async () => {
    // A FIFO read synchronously held the event loop until a writer came (for ever); /dev/zero never ended.
    execFileSync("mkfifo", [join(dir, "pipe.html")]);
    writeFileSync(join(dir, "huge.html"), "");
    truncateSync(join(dir, "huge.html"), 16 * 1024 * 1024 + 1);
    const odd = join(dir, "odd.mock.json");
    writeFileSync(odd, JSON.stringify({ apps: ["pipe.html", "/dev/zero", "views", "huge.html"].map((f, i) => ({ uri: `ui://odd/${i}.html`, file: f })), skills: [{ name: "odd", description: "Odd files", file: "pipe.html" }] }));
    const run = await runCli(["validate", odd]);
    expect(run.code).toBe(1);
    const lines = run.stderr.split("\n").filter((l) => /^- (apps|skills)\[/.test(l));
    expect(lines.map((l) => /\((?:[^:]+): (.*)\)\. Check the path/.exec(l)?.[1])).toEqual([
      "it is a FIFO (named pipe); name a regular file",
      "it is a device; name a regular file",
      "it is a directory; name a regular file",
      `it is ${16 * 1024 * 1024 + 1} bytes, more than the ${16 * 1024 * 1024} a declared file may hold`,
      "it is a FIFO (named pipe); name a regular file",
    ]);
    expect(lines.at(-1)).toMatch(/^- skills\[0\]\.file: cannot read /);
  });

  test("the admin API declares apps from a fragment", async () => {
    await using mock = await McpMock.start({ admin: true });
    const origin = new URL(mock.url).origin;
    const posted = await fetch(`${origin}/__admin/stubs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tools: [{ name: "open", ui: { resourceUri: "ui://admin/view.html" } }], apps: [{ uri: "ui://admin/view.html", html: "<p>admin</p>" }] }),
    });
    expect(posted.status).toBeLessThan(300);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    expect((await client.readResource({ uri: "ui://admin/view.html" })).contents[0]).toMatchObject({ text: "<p>admin</p>", mimeType: "text/html;profile=mcp-app" });
    await client.close();
  });

  // The peer is read from the socket; in process, with the Node request the server would pass (no traffic leaves loopback).
  test("a fragment's file paths are read for loopback peers only: a peer beyond loopback cannot make the mock serve its machine's files", async () => {
    writeFileSync(join(dir, "secret.txt"), "the mock machine's secret");
    await using mock = await McpMock.start();
    const admin = adminApp(mock, { remote: true, token: "s3cret" });
    const post = (fragment: object, remoteAddress: string): Promise<Response> => {
      const body = JSON.stringify(fragment);
      const headers = { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), authorization: "Bearer s3cret" };
      const incoming = Object.assign(Readable.from([Buffer.from(body)]), { socket: { remoteAddress }, headers });
      return Promise.resolve(admin.fetch(new Request("http://127.0.0.1/__admin/stubs", { method: "POST", headers, body }), { incoming }));
    };
    const secret = join(dir, "secret.txt");
    const fragment = { apps: [{ uri: "ui://x/view.html", file: secret }], skills: [{ name: "s", description: "S", content: "# S", files: { "a.md": { file: secret } } }] };
    const refused = await post(fragment, "203.0.113.7");
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: `[mcpmock] the admin API reads no files of the mock's machine for a client beyond loopback (apps[0].file, skills[0].files["a.md"].file); nothing was applied. Send the content inline: an app's HTML as "html", a skill's body as "content" and its files as text or blob.`,
    });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    expect((await client.listResources()).resources).toEqual([]);
    // A loopback peer is on the mock's machine already: its paths are read as before.
    const local = await post({ apps: fragment.apps }, "127.0.0.1");
    expect(local.status).toBe(201);
    expect((await client.readResource({ uri: "ui://x/view.html" })).contents[0]).toMatchObject({ text: "the mock machine's secret" });
    await client.close();
  });
});
