/**
 * The Chromium side of the apps tests: a browser with loopback reachable from sandboxed views
 * (the probe's direct reports), and `host()`, which plays one app the way a host does: the
 * test's MCP client (declaring the ui extension) finds the tool's app, reads it, calls the
 * tool, and the page (test/apps/host/host-page.ts, on the official `AppBridge`) renders the
 * HTML, relaying the view's tool calls to that client.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { BrowserContext, Frame, Page } from "playwright-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { launchBrowser } from "../../support/browser.js";

/** What a client declares to be a host of apps. */
export const HOST_CAPABILITIES = { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } } };

/** How a host plays one app; the wrong hosts are on purpose. */
export interface HostOptions {
  /** The tool with `ui` the client calls. */
  readonly tool: string;
  readonly arguments?: Record<string, unknown>;
  /** Send the tool's result before its input. */
  readonly resultFirst?: boolean;
  /** Refuse to relay the view's tool calls. */
  readonly refuseCalls?: boolean;
  /** Never answer the view's ui/initialize. */
  readonly noHandshake?: boolean;
}

/** One app rendered in a page. */
export interface HostRun {
  readonly client: Client;
  readonly page: Page;
  /** The app's HTML as the client read it. */
  readonly html: string;
  /** The sandboxed frame the view runs in. */
  readonly view: () => Frame;
  teardown(): Promise<void>;
  close(): Promise<void>;
}

/** A Chromium with the host page bundled; `close()` ends it and removes its profile. */
export interface HostBrowser {
  /** The browser, for other pages (the inspector). */
  readonly context: BrowserContext;
  host(url: string, options: HostOptions): Promise<HostRun>;
  close(): Promise<void>;
}

/** Chromium as the inspector's tests start it, with local network access allowed (the view's frames reach the mock on loopback). */
const launch = (): Promise<BrowserContext & AsyncDisposable> => launchBrowser(process.env, { args: ["--disable-features=LocalNetworkAccessChecks"], viewport: { width: 1280, height: 720 } });

/** Starts Chromium and bundles the host page (esbuild, as a browser script). */
export async function startHostBrowser(): Promise<HostBrowser> {
  const here = fileURLToPath(new URL(".", import.meta.url));
  const [bundle, browser] = await Promise.all([
    build({ entryPoints: [join(here, "host-page.ts")], bundle: true, write: false, format: "iife", platform: "browser", target: "es2020", logLevel: "warning" }),
    launch(),
  ]);
  const script = (bundle.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
  return {
    context: browser,
    close: () => browser.close(),
    host: async (url, options) => {
      const client = new Client({ name: "test-host", version: "1.0.0" }, { capabilities: HOST_CAPABILITIES as never });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      const tool = (await client.listTools()).tools.find((t) => t.name === options.tool);
      const uri = (tool?._meta?.["ui"] as { resourceUri: string } | undefined)?.resourceUri;
      if (uri === undefined) throw new Error(`tool ${options.tool} has no _meta.ui.resourceUri: ${JSON.stringify(tool)}`);
      const html = ((await client.readResource({ uri })).contents[0] as { text: string }).text;
      const toolInput = options.arguments ?? {};
      const toolResult = await client.callTool({ name: options.tool, arguments: toolInput });
      const page = await browser.newPage();
      await page.exposeFunction("hostCallTool", (params: { name: string; arguments?: Record<string, unknown> }) => client.callTool(params));
      const origin = new URL(url).origin;
      await page.route(`${origin}/__test/host.html`, (route) => route.fulfill({ contentType: "text/html", body: `<!doctype html><body><script>${script}</script></body>` }));
      await page.goto(`${origin}/__test/host.html`);
      const { resultFirst, refuseCalls, noHandshake } = options;
      await page.evaluate((run) => window.renderApp(run), { html, toolInput, toolResult, resultFirst, refuseCalls, noHandshake });
      return {
        client,
        page,
        html,
        view: () => {
          const frame = page.frames().find((f) => f !== page.mainFrame());
          if (frame === undefined) throw new Error("the host page has no view frame");
          return frame;
        },
        teardown: () => page.evaluate(() => window.teardownApp()),
        close: async () => {
          await page.close();
          await client.close();
        },
      };
    },
  };
}
