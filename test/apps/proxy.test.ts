/**
 * Proxy mode keeps apps as the real server serves them (issue 40, part 4): the `ui://`
 * resource's HTML byte for byte with its `_meta.ui`, the tool's `_meta.ui`, and the ui
 * extension, through a mock that proxies to another server with apps.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock } from "../../src/index.js";

const HTML = "<!doctype html>\n<meta charset=utf-8><p>Température: 21 °C</p>\r\n<script>/* \u2028 */</script>";

describe("apps through proxy mode", () => {
  test("the ui resource and the tool's _meta.ui come through unchanged", async () => {
    await using upstream = await McpMock.start({
      tools: [{ name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] } }],
      apps: [{ uri: "ui://weather/view.html", html: HTML, csp: { connectDomains: ["https://api.example.com"] }, prefersBorder: true }],
    });
    await using proxy = await McpMock.start({ proxy: { target: upstream.url } });
    const client = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    const direct = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } });
    await direct.connect(new StreamableHTTPClientTransport(new URL(upstream.url)));
    expect((await client.listTools()).tools).toEqual((await direct.listTools()).tools);
    const read = await client.readResource({ uri: "ui://weather/view.html" });
    expect(read).toEqual(await direct.readResource({ uri: "ui://weather/view.html" }));
    expect((read.contents[0] as { text: string }).text).toBe(HTML);
    expect((client.getServerCapabilities() as { extensions?: object }).extensions).toHaveProperty(["io.modelcontextprotocol/ui"]);
    // Recorded on the way, replayed without the upstream: the same HTML and _meta.
    const recorded = proxy.snapshot();
    await using replay = await McpMock.fromDefinition(recorded);
    const again = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } });
    await again.connect(replay.clientTransport());
    expect(await again.readResource({ uri: "ui://weather/view.html" })).toEqual(read);
    expect((await again.listTools()).tools).toEqual((await direct.listTools()).tools);
    await again.close();
    await client.close();
    await direct.close();
  });
});
