/**
 * A test host, in the browser: the official ext-apps host side (`AppBridge`) renders an app's
 * HTML in a sandboxed frame and relays the view's tool calls to the MCP client, which is the
 * test's own (reached through `window.hostCallTool`, a function the test exposes). Bundled by
 * the test with esbuild; `window.renderApp` runs one app, in order or wrongly on purpose.
 */
import { AppBridge, PostMessageTransport } from "@modelcontextprotocol/ext-apps/app-bridge";

interface Run {
  html: string;
  toolInput: Record<string, unknown>;
  toolResult: Record<string, unknown>;
  /** Send the result before the input (a wrong host). */
  resultFirst?: boolean;
  /** Refuse to relay the view's tool calls (a wrong host). */
  refuseCalls?: boolean;
  /** Never answer the view's ui/initialize (a wrong host): the bridge never sees it. */
  noHandshake?: boolean;
}

declare global {
  interface Window {
    hostCallTool(params: unknown): Promise<Record<string, unknown>>;
    renderApp(run: Run): Promise<void>;
    teardownApp(): Promise<void>;
    hostLog: string[];
  }
}

window.hostLog = [];
let bridge: AppBridge | undefined;

window.renderApp = async (run) => {
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts");
  document.body.append(frame);
  const view = frame.contentWindow as Window;
  bridge = new AppBridge(null, { name: "test-host", version: "1.0.0" }, { serverTools: {}, openLinks: {}, updateModelContext: { text: {} }, message: { text: {} } }, { hostContext: { theme: "light", displayMode: "inline", availableDisplayModes: ["inline", "fullscreen"] } });
  bridge.oncalltool = async (params) => {
    window.hostLog.push(`tools/call ${String((params as { name?: string }).name)}`);
    if (run.refuseCalls) throw new Error("this host does not relay tool calls");
    return (await window.hostCallTool(params)) as never;
  };
  bridge.onmessage = async () => ({});
  bridge.onupdatemodelcontext = async () => ({});
  bridge.onopenlink = async () => ({});
  bridge.onrequestdisplaymode = async ({ mode }) => ({ mode });
  const initialized = new Promise<void>((resolve) => (bridge!.oninitialized = () => resolve()));
  const transport = new PostMessageTransport(view, view);
  if (run.noHandshake) {
    // The bridge's handler, behind one that drops the view's ui/initialize.
    let handler: PostMessageTransport["onmessage"];
    Object.defineProperty(transport, "onmessage", {
      get: () => handler && ((message: { method?: string }, extra: unknown) => message.method === "ui/initialize" || (handler as (m: unknown, e: unknown) => void)(message, extra)),
      set: (value: PostMessageTransport["onmessage"]) => {
        handler = value;
      },
    });
  }
  await bridge.connect(transport);
  frame.srcdoc = run.html;
  if (run.noHandshake) return;
  await initialized;
  if (run.resultFirst) await bridge.sendToolResult(run.toolResult as never);
  await bridge.sendToolInput({ arguments: run.toolInput });
  if (!run.resultFirst) await bridge.sendToolResult(run.toolResult as never);
};

window.teardownApp = async () => {
  await bridge?.teardownResource({});
};
