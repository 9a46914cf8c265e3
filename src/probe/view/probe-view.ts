/**
 * The probe view, in the browser: the official ext-apps `App` on a `PostMessageTransport`
 * whose traffic is watched both ways. Every message the host and the view exchange is
 * reported to the mock as an app event, through the host (the app-only report tool, the
 * host's real path) and, when the mock listens on HTTP, directly (for hosts that never relay
 * a call); the mock counts each event once. Scripted actions (`probe.on`) run when their
 * event comes (`"ready"`: after the view's `ui/initialize` is answered).
 * Bundled by scripts/probe-view.mjs into dist/probe/view.html; the mock adds the settings.
 * @module
 */
import { App, PostMessageTransport } from "@modelcontextprotocol/ext-apps";

interface ProbeConfig {
  app: string;
  on: Record<string, { method: string; params?: Record<string, unknown> }[]>;
  reportTool: string;
  reportUrl?: string;
}

interface Message {
  jsonrpc: "2.0";
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
}

const MAX_QUEUE = 2000;
const MAX_VALUE = 64 * 1024;

const config = JSON.parse(document.getElementById("mcpmock-probe")?.textContent ?? "{}") as ProbeConfig;
const instance = Math.random().toString(36).slice(2);
let seq = 0;
const queue: Record<string, unknown>[] = [];
const list = document.getElementById("events");
/** Requests by id, per side, so an answer is reported with its request's method. */
const pending = { view: new Map<string | number, string>(), host: new Map<string | number, string>() };
/** The ids of the view's own report calls: not reported. */
const reports = new Set<string | number>();
let connected = false;
let timer: ReturnType<typeof setTimeout> | undefined;

function bounded(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined || text.length <= MAX_VALUE ? value : `[cut: ${text.length} bytes] ${text.slice(0, 200)}`;
}

function record(from: "host" | "view", message: Message): void {
  let method = message.method;
  if (method === "tools/call" && from === "view" && message.params?.["name"] === config.reportTool && message.id !== undefined) {
    reports.add(message.id);
    return;
  }
  if (method === undefined) {
    if (message.id === undefined) return;
    if (from === "host" && reports.delete(message.id)) return;
    const requests = from === "host" ? pending.view : pending.host;
    method = requests.get(message.id) ?? "(answer to an unknown request)";
    requests.delete(message.id);
  } else if (message.id !== undefined) (from === "view" ? pending.view : pending.host).set(message.id, method);
  const event: Record<string, unknown> = { seq: seq++, from, method, at: Date.now() };
  if (message.id !== undefined) event["id"] = message.id;
  for (const key of ["params", "result", "error"] as const) if (message[key] !== undefined) event[key] = bounded(message[key]);
  if (queue.length < MAX_QUEUE) queue.push(event);
  const item = document.createElement("li");
  item.textContent = `${from === "host" ? "→" : "←"} ${method}${message.method === undefined ? " (answer)" : ""}`;
  list?.append(item);
  if (from === "host" && message.method !== undefined) setTimeout(() => void run(message.method as string), 0);
  schedule();
}

function schedule(): void {
  if (timer === undefined) timer = setTimeout(() => void flush(), 30);
}

/** Sends the queued events: directly when the mock listens on HTTP, and through the host once connected. */
async function flush(): Promise<void> {
  timer = undefined;
  if (queue.length === 0 || (!connected && config.reportUrl === undefined)) return;
  const events = queue.splice(0, queue.length);
  const body = { app: config.app, instance, events };
  if (config.reportUrl !== undefined) {
    // A simple request (no preflight); the answer is not read.
    void fetch(config.reportUrl, { method: "POST", mode: "no-cors", keepalive: true, headers: { "content-type": "text/plain" }, body: JSON.stringify(body) }).catch(() => undefined);
  }
  if (connected) await app.callServerTool({ name: config.reportTool, arguments: body }).catch(() => undefined);
}

/** Accepts any result: the probe reports answers, it does not check them. */
const anyResult = { "~standard": { version: 1 as const, vendor: "mcpmock", validate: (value: unknown) => ({ value }) } };

async function run(event: string): Promise<void> {
  for (const action of config.on[event] ?? []) {
    try {
      if (action.method.includes("notifications/")) await app.notification({ method: action.method, params: action.params ?? {} } as never);
      else await app.request({ method: action.method, params: action.params ?? {} } as never, anyResult as never);
    } catch {
      // The host's error answer is reported like any answer.
    }
  }
}

const transport = new PostMessageTransport(window.parent, window.parent);
const send = transport.send.bind(transport);
transport.send = (message, options) => {
  record("view", message as Message);
  return send(message, options);
};
let handler: PostMessageTransport["onmessage"];
Object.defineProperty(transport, "onmessage", {
  get: () => (handler === undefined ? undefined : (message: Message, extra: unknown) => {
    record("host", message);
    (handler as (m: unknown, e: unknown) => void)(message, extra);
  }),
  set: (value: PostMessageTransport["onmessage"]) => {
    handler = value;
  },
});

const app = new App({ name: "mcpmock-probe", version: "1" }, {}, { autoResize: false });
app.ontoolinput = () => undefined;
app.ontoolinputpartial = () => undefined;
app.ontoolresult = () => undefined;
app.ontoolcancelled = () => undefined;
app.onhostcontextchanged = () => undefined;
app.onteardown = async () => {
  await flush();
  return {};
};
app
  .connect(transport)
  .then(async () => {
    connected = true;
    await flush();
    await run("ready");
  })
  .catch((error: unknown) => {
    queue.push({ seq: seq++, from: "view", method: "mcpmock/probe-error", params: { message: String(error) }, at: Date.now() });
    schedule();
  });
