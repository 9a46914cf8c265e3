/**
 * MCP Apps as declarations (issue 40, part 1), through real clients: the app served as a
 * `ui://` resource with its mime type and `_meta.ui`, the tool's `ui` as `_meta.ui` and the
 * flat key, the ui extension advertised in both eras, app-only tools hidden from clients
 * without the extension, and every mistake reported at once with the fix.
 */
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Transport } from "@modelcontextprotocol/client";
import { McpMock, type AppDeclaration, type ToolDeclaration } from "../../src/index.js";

const UI = "io.modelcontextprotocol/ui";
const dir = mkdtempSync(join(tmpdir(), "mcpmock-apps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tools: ToolDeclaration[] = [
  { name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] } },
  { name: "refresh", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/view.html", visibility: ["app"] } },
  { name: "plain", inputSchema: { type: "object" } },
];
const apps: AppDeclaration[] = [
  { uri: "ui://weather/view.html", html: "<!doctype html><p>Sunny</p>", csp: { connectDomains: ["https://api.example.com"] }, permissions: { geolocation: {} }, domain: "weather.example", prefersBorder: true },
];

async function v1(mock: McpMock, ui: boolean): Promise<Client> {
  const client = new Client({ name: "host", version: "1" }, { capabilities: ui ? ({ extensions: { [UI]: { mimeTypes: ["text/html;profile=mcp-app"] } } } as never) : {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  return client;
}

describe("apps as declarations", () => {
  test("the app is a ui:// resource with its mime type and _meta.ui; the tool carries _meta.ui and the flat key", async () => {
    await using mock = await McpMock.start({ tools, apps });
    const client = await v1(mock, true);
    expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[UI]).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
    const listed = (await client.listTools()).tools;
    expect(listed.map((t) => t.name)).toEqual(["show_weather", "refresh", "plain"]);
    expect(listed[0]?._meta).toEqual({ ui: { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] }, "ui/resourceUri": "ui://weather/view.html" });
    expect(listed[0]).not.toHaveProperty("ui");
    expect(listed[2]?._meta).toBeUndefined();
    const ui = { csp: { connectDomains: ["https://api.example.com"] }, permissions: { geolocation: {} }, domain: "weather.example", prefersBorder: true };
    expect((await client.listResources()).resources).toEqual([{ uri: "ui://weather/view.html", name: "view.html", mimeType: "text/html;profile=mcp-app", _meta: { ui } }]);
    const read = await client.readResource({ uri: "ui://weather/view.html" });
    expect(read.contents).toEqual([{ uri: "ui://weather/view.html", mimeType: "text/html;profile=mcp-app", text: "<!doctype html><p>Sunny</p>", _meta: { ui } }]);
    await client.close();
  });

  test("a client without the ui extension does not see app-only tools; no app, no extension", async () => {
    await using mock = await McpMock.start({ tools, apps });
    const client = await v1(mock, false);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["show_weather", "plain"]);
    await client.close();
    await using bare = await McpMock.start({ tools: [{ name: "plain" }] });
    const other = await v1(bare, true);
    expect(other.getServerCapabilities()).not.toHaveProperty("extensions");
    await other.close();
  });

  test("2026-07-28: server/discover advertises the extension; app-only tools follow the request's capabilities", async () => {
    await using mock = await McpMock.start({ tools, apps });
    for (const ui of [true, false]) {
      const client = new V2Client({ name: "host", version: "1" }, { capabilities: ui ? { extensions: { [UI]: {} } } : {}, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
      await client.connect(new V2Transport(new URL(mock.url)));
      expect((client.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.[UI]).toEqual({ mimeTypes: ["text/html;profile=mcp-app"] });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ui ? ["show_weather", "refresh", "plain"] : ["show_weather", "plain"]);
      await client.close();
    }
  });

  test("an app from a file, and one declared at run time", async () => {
    const file = join(dir, "view.html");
    writeFileSync(file, "<!doctype html><p>From a file</p>");
    await using mock = await McpMock.start({ apps: [{ uri: "ui://files/view.html", file }] });
    mock.declareApp({ uri: "ui://late/view.html", name: "late", html: "<p>late</p>" });
    const client = await v1(mock, true);
    expect((await client.readResource({ uri: "ui://files/view.html" })).contents[0]).toMatchObject({ text: "<!doctype html><p>From a file</p>", mimeType: "text/html;profile=mcp-app" });
    expect((await client.readResource({ uri: "ui://late/view.html" })).contents[0]).toMatchObject({ text: "<p>late</p>" });
    await client.close();
  });

  test("every mistake at once, each with the fix", async () => {
    const error = await McpMock.start({
      tools: [{ name: "a", ui: { resourceUri: "ui://nowhere/view.html" } }],
      apps: [
        { uri: "https://example.com/view.html", html: "<p>x</p>" },
        { uri: "ui://b/view.html", file: join(dir, "missing.html") },
        { uri: "ui://c/view.html", html: "<p>c</p>", csp: { connectDomains: "https://x" } as never, permissions: { camera: true } as never },
      ],
    }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toContain("5 problems in the apps");
    expect(error?.message).toContain(`apps[0].uri must be a ui:// URI`);
    expect(error?.message).toContain(`apps[1].file: cannot read`);
    expect(error?.message).toContain(`apps[2].csp must be an object of origin lists`);
    expect(error?.message).toContain(`apps[2].permissions must be an object whose keys are camera, microphone, geolocation, clipboardWrite`);
    expect(error?.message).toContain(`tool "a": ui.resourceUri "ui://nowhere/view.html" names no declared app. Declared apps: none. Declare it: apps: [{ uri: "ui://nowhere/view.html", html: "..." }].`);
    await expect(McpMock.start({ tools: [{ name: "a", ui: { visibility: ["user"] } as never }] })).rejects.toThrow(`ui.visibility must be ["model"], ["app"] or ["model", "app"]`);
  });
});
