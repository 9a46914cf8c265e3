/**
 * `mcpmock serve --watch` with MCP Apps (issue 40): an app's `file` beside the definition is
 * watched too, and saved, the app is served from it again (clients told with list_changed);
 * a definition edit that changes or removes an app is applied like any declaration; a file
 * that cannot be read keeps the last good app. Run in process with the function the command uses.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpMock } from "../../src/index.js";
import { watchDefinition } from "../../src/cli/watch.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-apps-watch-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const definition = (apps: unknown[], link = "ui://weather/view.html"): string =>
  JSON.stringify({ tools: [{ name: "show_weather", inputSchema: { type: "object" }, ...(link ? { ui: { resourceUri: link } } : {}) }], apps });

describe("--watch with apps", { timeout: 30_000 }, () => {
  test("an app file saved is served again; a definition edit changes and removes apps", async () => {
    mkdirSync(join(dir, "views"));
    const view = join(dir, "views", "weather.html");
    writeFileSync(view, "<p>Sunny</p>");
    const file = join(dir, "weather.mock.json");
    writeFileSync(file, definition([{ uri: "ui://weather/view.html", file: "views/weather.html" }]));
    await using mock = await McpMock.fromDefinition(file, { transport: "none" });
    const lines: string[] = [];
    const stop = watchDefinition(file, mock, { out: (l) => lines.push(l), err: (l) => lines.push(l) });
    const client = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } as never });
    let changed = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => void changed++);
    await client.connect(mock.clientTransport());
    const text = async (): Promise<string> => ((await client.readResource({ uri: "ui://weather/view.html" })).contents[0] as { text: string }).text;
    try {
      expect(await text()).toBe("<p>Sunny</p>");
      writeFileSync(view, "<p>Rain</p>");
      await expect.poll(text, { timeout: 10_000 }).toBe("<p>Rain</p>");
      expect(lines).toEqual([`[mcpmock] reloaded ${view}: app ui://weather/view.html (clients told with list_changed)`]);
      await expect.poll(() => changed).toBe(1);

      // The definition now names another file, with a border: served from it.
      writeFileSync(join(dir, "views", "storm.html"), "<p>Storm</p>");
      writeFileSync(file, definition([{ uri: "ui://weather/view.html", file: "views/storm.html", prefersBorder: true }]));
      await expect.poll(text, { timeout: 10_000 }).toBe("<p>Storm</p>");
      expect(lines[1]).toBe(`[mcpmock] reloaded ${file}: 0 stubs; resources changed: ui://weather/view.html (clients told with list_changed)`);
      expect((await client.readResource({ uri: "ui://weather/view.html" })).contents[0]?._meta).toEqual({ ui: { prefersBorder: true } });
      // ... and the new file is the one watched.
      writeFileSync(view, "<p>Old file, ignored</p>");
      writeFileSync(join(dir, "views", "storm.html"), "<p>Hail</p>");
      await expect.poll(text, { timeout: 10_000 }).toBe("<p>Hail</p>");

      // The app removed (with the tool's link): gone from resources, and no longer advertised to new clients.
      writeFileSync(file, definition([], ""));
      await expect.poll(async () => (await client.listResources()).resources.map((r) => r.uri), { timeout: 10_000 }).toEqual([]);
      const fresh = new Client({ name: "host", version: "1" });
      await fresh.connect(mock.clientTransport());
      expect((fresh.getServerCapabilities() as { extensions?: Record<string, unknown> }).extensions?.["io.modelcontextprotocol/ui"]).toBeUndefined();
      await fresh.close();
    } finally {
      stop();
      await client.close();
    }
  });
});
