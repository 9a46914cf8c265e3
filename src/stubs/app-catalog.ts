/**
 * MCP Apps as declarations: an app is a `ui://` resource (HTML of mime type
 * `text/html;profile=mcp-app`, with `_meta.ui` saying how the host sandboxes it), and a
 * tool's `ui` names the app it opens. Checked all at once, with the fix in the message.
 * @module
 */
import { declaredFileBytes, readDeclaredFile } from "./declared-file.js";
import { APP_MIME_TYPE, APP_URI_SCHEME, CSP_FIELDS, PERMISSIONS, VISIBILITIES } from "../protocol/apps.js";
import { McpMockError, showValue } from "../values/errors.js";
import type { ResourceDeclaration } from "./resource-catalog.js";

/**
 * The origins an app may reach, as its host enforces them in the view's Content Security
 * Policy.
 *
 * @example
 * ```ts
 * import type { AppCsp } from "mcpmock";
 * const csp: AppCsp = { connectDomains: ["https://api.example.com"], resourceDomains: ["https://cdn.example.com"] };
 * ```
 * @category Apps
 */
export interface AppCsp {
  /** Origins the view may fetch from or open sockets to (`connect-src`). */
  readonly connectDomains?: readonly string[];
  /** Origins of scripts, styles, images and fonts (`script-src`, `img-src`, ...). */
  readonly resourceDomains?: readonly string[];
  /** Origins of nested frames (`frame-src`). */
  readonly frameDomains?: readonly string[];
  /** Allowed `<base href>` origins (`base-uri`). */
  readonly baseUriDomains?: readonly string[];
}

/**
 * Browser permissions an app asks for; each is an empty object when asked.
 *
 * @example
 * ```ts
 * import type { AppPermissions } from "mcpmock";
 * const permissions: AppPermissions = { clipboardWrite: {} };
 * ```
 * @category Apps
 */
export interface AppPermissions {
  /** The camera. */
  readonly camera?: Readonly<Record<string, never>>;
  /** The microphone. */
  readonly microphone?: Readonly<Record<string, never>>;
  /** The device's location. */
  readonly geolocation?: Readonly<Record<string, never>>;
  /** Writing to the clipboard. */
  readonly clipboardWrite?: Readonly<Record<string, never>>;
}

/**
 * One message the probe view sends when an event comes: a request to the host (`tools/call`,
 * `ui/message`, `ui/update-model-context`, `ui/request-display-mode`, `ui/open-link`, ...).
 *
 * @example
 * ```ts
 * import type { ProbeAction } from "mcpmock";
 * const refresh: ProbeAction = { method: "tools/call", params: { name: "refresh", arguments: {} } };
 * ```
 * @category Apps
 */
export interface ProbeAction {
  /** The method, e.g. `"tools/call"`. */
  readonly method: string;
  /** Its params. */
  readonly params?: Readonly<Record<string, unknown>>;
}

/**
 * The probe view's script: for each event (a method the host sends the view, or `"ready"`
 * once its `ui/initialize` is answered), the messages the view then sends, in order.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   apps: [{ uri: "ui://probe/view.html", probe: { on: {
 *     ready: [{ method: "ui/message", params: { role: "user", content: [{ type: "text", text: "hi" }] } }],
 *   } } }],
 * });
 * ```
 * @category Apps
 */
export interface ProbeSettings {
  /** Messages to send when an event comes, by event. */
  readonly on?: Readonly<Record<string, readonly ProbeAction[]>>;
}

/**
 * An MCP App: a `ui://` resource a host renders in a sandboxed frame when a tool that names
 * it (`ui: { resourceUri }`) is called. Give its HTML inline (`html`), from a file (`file`,
 * relative to the working directory, or to the definition file), or let mcpmock serve the
 * probe view (`probe`), which reports every message the host and the view exchange.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using mock = await McpMock.start({
 *   tools: [{ name: "show_weather", inputSchema: { type: "object" }, ui: { resourceUri: "ui://weather/view.html" } }],
 *   apps: [{ uri: "ui://weather/view.html", html: "<!doctype html><p>Sunny</p>", prefersBorder: true }],
 * });
 * ```
 * @category Apps
 */
export interface AppDeclaration {
  /** The app's URI: `ui://<server>/<view>`. */
  readonly uri: string;
  /** The resource's name, as `resources/list` lists it (default: the URI's last part). */
  readonly name?: string;
  /** A human-readable title. */
  readonly title?: string;
  /** What the app shows. */
  readonly description?: string;
  /** The view's HTML. */
  readonly html?: string;
  /** A file holding the view's HTML. */
  readonly file?: string;
  /** Serve the built-in probe view (with a script of view actions, or `true`). */
  readonly probe?: boolean | ProbeSettings;
  /** The origins the view may reach. */
  readonly csp?: AppCsp;
  /** The browser permissions the view asks for. */
  readonly permissions?: AppPermissions;
  /** A dedicated origin for the view, where the host supports one. */
  readonly domain?: string;
  /** Whether the host should draw a border around the view. */
  readonly prefersBorder?: boolean;
  /** Extra resource metadata, listed as is (beside `ui`). */
  readonly _meta?: { readonly [key: string]: unknown };
}

/**
 * A tool's link to its app: written on the wire as the tool's `_meta.ui` and the flat
 * `_meta["ui/resourceUri"]`.
 *
 * @example
 * ```ts
 * import type { ToolUi } from "mcpmock";
 * const ui: ToolUi = { resourceUri: "ui://weather/view.html", visibility: ["model", "app"] };
 * ```
 * @category Apps
 */
export interface ToolUi {
  /** The `ui://` URI of the app the host renders for this tool. */
  readonly resourceUri?: string;
  /** Who may call the tool: `["model"]`, `["app"]` (hidden from clients without the ui extension), or both (the default). */
  readonly visibility?: readonly ("model" | "app")[];
}

/** The other way to give an app's HTML, for a file that cannot be read. */
const FILE_OTHERWISE = "give the HTML inline with html";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** What is wrong with an app's declaration (empty when nothing is); `baseDir` resolves a relative `file`. */
export function appProblems(app: AppDeclaration, where: string, baseDir = process.cwd()): string[] {
  if (!isObject(app)) return [`${where} must be an object like { uri: "ui://server/view.html", html: "<!doctype html>..." }, received ${showValue(app)}.`];
  const problems: string[] = [];
  if (typeof app.uri !== "string" || !app.uri.startsWith(APP_URI_SCHEME) || app.uri.length <= APP_URI_SCHEME.length) {
    problems.push(`${where}.uri must be a ui:// URI (MCP Apps serve every view from one), received ${showValue(app.uri)}. Write it like "ui://my-server/view.html".`);
  }
  const sources = (["html", "file", "probe"] as const).filter((k) => app[k] !== undefined && app[k] !== false);
  if (sources.length !== 1) {
    problems.push(`${where} needs exactly one of html (the view inline), file (a path to it) or probe: true (the built-in probe view), received ${sources.length === 0 ? "none" : sources.join(" and ")}.`);
  }
  if (app.html !== undefined && typeof app.html !== "string") problems.push(`${where}.html must be the view's HTML as a string, received ${showValue(app.html)}.`);
  if (app.file !== undefined) {
    if (typeof app.file !== "string" || app.file === "") problems.push(`${where}.file must be a path to an HTML file, received ${showValue(app.file)}.`);
    else {
      const read = readDeclaredFile(app.file, baseDir, `${where}.file`, FILE_OTHERWISE);
      if ("problem" in read) problems.push(read.problem);
    }
  }
  if (app.probe !== undefined && typeof app.probe !== "boolean") {
    const on = isObject(app.probe) ? app.probe.on : undefined;
    if (!isObject(app.probe) || (on !== undefined && !isObject(on))) problems.push(`${where}.probe must be true or { on: { "<event>": [{ method, params }] } }, received ${showValue(app.probe)}.`);
    else
      for (const [event, actions] of Object.entries(on ?? {})) {
        if (!Array.isArray(actions) || !actions.every((a) => isObject(a) && typeof a.method === "string" && (a.params === undefined || isObject(a.params)))) {
          problems.push(`${where}.probe.on[${JSON.stringify(event)}] must be a list of messages like [{ method: "tools/call", params: { name: "refresh", arguments: {} } }], received ${showValue(actions)}.`);
        }
      }
  }
  if (app.csp !== undefined) {
    const bad = !isObject(app.csp) ? [] : Object.entries(app.csp).filter(([k, v]) => !CSP_FIELDS.includes(k) || !Array.isArray(v) || !v.every((d) => typeof d === "string"));
    if (!isObject(app.csp) || bad.length > 0) {
      problems.push(`${where}.csp must be an object of origin lists (${CSP_FIELDS.join(", ")}), like { connectDomains: ["https://api.example.com"] }, received ${showValue(isObject(app.csp) ? Object.fromEntries(bad) : app.csp)}.`);
    }
  }
  if (app.permissions !== undefined) {
    const bad = !isObject(app.permissions) ? [] : Object.entries(app.permissions).filter(([k, v]) => !PERMISSIONS.includes(k) || !isObject(v));
    if (!isObject(app.permissions) || bad.length > 0) {
      problems.push(`${where}.permissions must be an object whose keys are ${PERMISSIONS.join(", ")}, each {}, like { camera: {} }, received ${showValue(isObject(app.permissions) ? Object.fromEntries(bad) : app.permissions)}.`);
    }
  }
  if (app.domain !== undefined && typeof app.domain !== "string") problems.push(`${where}.domain must be a string (an origin), received ${showValue(app.domain)}.`);
  if (app.prefersBorder !== undefined && typeof app.prefersBorder !== "boolean") problems.push(`${where}.prefersBorder must be true or false, received ${showValue(app.prefersBorder)}.`);
  return problems;
}

/** What is wrong with a tool's `ui` (empty when nothing is); `known`: the URIs it may name, or `undefined` to skip that check (proxy mode). */
export function toolUiProblems(ui: unknown, where: string, known: readonly string[] | undefined): string[] {
  if (ui === undefined) return [];
  if (!isObject(ui)) return [`${where} must be an object like { resourceUri: "ui://server/view.html", visibility: ["model", "app"] }, received ${showValue(ui)}.`];
  const problems: string[] = [];
  const uri = ui["resourceUri"];
  if (uri !== undefined) {
    if (typeof uri !== "string" || !uri.startsWith(APP_URI_SCHEME)) problems.push(`${where}.resourceUri must be a ui:// URI, received ${showValue(uri)}.`);
    else if (known !== undefined && !known.includes(uri)) {
      problems.push(`${where}.resourceUri ${JSON.stringify(uri)} names no declared app. Declared apps: ${known.length ? known.join(", ") : "none"}. Declare it: apps: [{ uri: ${JSON.stringify(uri)}, html: "..." }].`);
    }
  }
  const visibility = ui["visibility"];
  if (visibility !== undefined && (!Array.isArray(visibility) || visibility.length === 0 || !visibility.every((v) => VISIBILITIES.includes(v as string)))) {
    problems.push(`${where}.visibility must be ["model"], ["app"] or ["model", "app"], received ${showValue(visibility)}.`);
  }
  return problems;
}

/** Throws one error listing every problem, when there are any. */
export function throwProblems(problems: readonly string[]): void {
  if (problems.length === 1) throw new McpMockError(problems[0] as string);
  if (problems.length > 1) throw new McpMockError(`${problems.length} problems in the apps:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
}

/** The `_meta.ui` of an app's resource: what the host sandboxes it with. */
export function appUiMeta(app: AppDeclaration, csp: AppCsp | undefined = app.csp): Record<string, unknown> | undefined {
  const ui: Record<string, unknown> = {};
  if (csp !== undefined) ui["csp"] = csp;
  if (app.permissions !== undefined) ui["permissions"] = app.permissions;
  if (app.domain !== undefined) ui["domain"] = app.domain;
  if (app.prefersBorder !== undefined) ui["prefersBorder"] = app.prefersBorder;
  return Object.keys(ui).length > 0 ? ui : undefined;
}

/** An app as the resource the mock serves: the HTML, the app's mime type and `_meta.ui`. */
export function appResource(app: AppDeclaration, html: string, csp?: AppCsp): ResourceDeclaration {
  const ui = appUiMeta(app, csp ?? app.csp);
  const meta = ui === undefined ? app._meta : { ...app._meta, ui };
  return {
    uri: app.uri,
    name: app.name ?? (app.uri.slice(APP_URI_SCHEME.length).split("/").filter(Boolean).pop() || app.uri),
    ...(app.title === undefined ? {} : { title: app.title }),
    ...(app.description === undefined ? {} : { description: app.description }),
    mimeType: APP_MIME_TYPE,
    ...(meta === undefined ? {} : { _meta: meta }),
    text: html,
  };
}

/** A file app's HTML (checked already by {@link appProblems}; a file changed since is refused the same way). */
export function readAppFile(app: AppDeclaration, baseDir = process.cwd()): string {
  return declaredFileBytes(app.file as string, baseDir, `app ${JSON.stringify(app.uri)}: file`, FILE_OTHERWISE).toString("utf8");
}
