/**
 * A mock's MCP Apps: each declared app served as its `ui://` resource, the tools' links to
 * them checked, the probe views rendered (with where to report), and the probe's report
 * tool (`mcpmock_probe_report`, app-only, so hosts relay it and models never see it)
 * answered by putting the reported events in the app event log.
 * @module
 */
import { appProblems, appResource, readAppFile, throwProblems, toolUiProblems, type AppCsp, type AppDeclaration, type ProbeSettings } from "../stubs/app-catalog.js";
import type { ResourceCatalog } from "../stubs/resource-catalog.js";
import type { ToolCatalog, ToolDeclaration } from "../stubs/tool-catalog.js";
import { FALLBACK_PRIORITY, type Stub } from "../stubs/stub.js";
import type { McpCall } from "../stubs/call.js";
import { AppEventLog } from "../journal/app-events.js";
import { withUiExtension } from "../protocol/apps.js";
import { logAppEvent } from "./reporting.js";
import { probePage, PROBE_REPORT_TOOL, PROBE_EVENTS_PATH } from "../probe/page.js";

/** The probe's report tool: app-only, any arguments. */
const REPORT_TOOL: ToolDeclaration = {
  name: PROBE_REPORT_TOOL,
  description: "mcpmock's probe view reports what it saw here (called by the view through the host; hidden from models).",
  inputSchema: { type: "object" },
  ui: { visibility: ["app"] },
};

/** What the apps read and change of the mock. */
export interface AppsHost {
  readonly resources: ResourceCatalog;
  readonly tools: ToolCatalog;
  readonly registry: { add(stub: Stub): void };
  /** `verbose`: one stderr line per app event. */
  readonly options: { readonly verbose?: boolean | undefined };
}

interface DeclaredApp {
  readonly declaration: AppDeclaration;
  readonly html: string | undefined;
}

/** The declared apps and what the probe views reported. */
export class Apps {
  readonly events = new AppEventLog();
  readonly #host: AppsHost;
  readonly #apps = new Map<string, DeclaredApp>();
  #origin: string | undefined;

  constructor(host: AppsHost) {
    this.#host = host;
    // The options are read when events come (the host sets them after making this).
    this.events.onAdd((events) => {
      if (this.#host.options.verbose === true) for (const event of events) logAppEvent(event);
    });
  }

  /** How many apps are declared (the ui extension is advertised when any is). */
  get size(): number {
    return this.#apps.size;
  }

  /** Capabilities with the ui extension added when an app is declared (beside any other extension). */
  advertised(capabilities: Record<string, unknown>): Record<string, unknown> {
    return this.#apps.size > 0 ? withUiExtension(capabilities) : capabilities;
  }

  /** The declared apps' URIs. */
  uris(): string[] {
    return [...this.#apps.keys()];
  }

  /**
   * Declares the start options' apps and checks every tool's link to one: every problem in
   * one error. `proxied`: the upstream may serve apps the mock does not declare.
   */
  declareAll(apps: readonly AppDeclaration[] | undefined, baseDir: string | undefined, proxied: boolean): void {
    const problems: string[] = [];
    const seen = new Set<string>();
    (apps ?? []).forEach((app, i) => {
      const found = appProblems(app, `apps[${i}]`, baseDir);
      if (found.length === 0 && seen.has(app.uri)) found.push(`apps[${i}]: ${JSON.stringify(app.uri)} is declared twice. Give each app one declaration.`);
      problems.push(...found);
      if (found.length === 0) seen.add(app.uri);
    });
    const known = proxied ? undefined : [...seen, ...this.#host.resources.known()];
    for (const { tool, uri } of this.#host.tools.appLinks()) problems.push(...toolUiProblems({ resourceUri: uri }, `tool "${tool}": ui`, known));
    throwProblems(problems);
    for (const app of apps ?? []) this.#declare(app, baseDir);
  }

  /** Declares one app while the mock runs (or replaces the one with the same URI). */
  declare(app: AppDeclaration, where: string, baseDir?: string): void {
    throwProblems(appProblems(app, where, baseDir));
    this.#declare(app, baseDir);
  }

  #declare(app: AppDeclaration, baseDir: string | undefined): void {
    const html = app.html ?? (app.file !== undefined ? readAppFile(app, baseDir) : undefined);
    this.#apps.set(app.uri, { declaration: app, html });
    this.#serve(app.uri);
    if (app.probe !== undefined && app.probe !== false && !this.#host.tools.has(PROBE_REPORT_TOOL)) {
      this.#host.tools.declare(REPORT_TOOL, "the probe's report tool");
      this.#host.registry.add(this.#reportStub());
    }
  }

  /** Removes an app; whether there was one. */
  remove(uri: string): boolean {
    if (!this.#apps.delete(uri)) return false;
    this.#host.resources.remove(uri);
    return true;
  }

  /** The mock's HTTP origin, once it listens: probe views also report there directly. */
  setOrigin(origin: string): void {
    this.#origin = origin;
    for (const [uri, app] of this.#apps) if (app.html === undefined) this.#serve(uri);
  }

  /** The built-in stubs the apps need (the probe's report tool), again after a reset. */
  defaultStubs(): Stub[] {
    return this.#host.tools.has(PROBE_REPORT_TOOL) && [...this.#apps.values()].some((a) => a.html === undefined) ? [this.#reportStub()] : [];
  }

  #serve(uri: string): void {
    const app = this.#apps.get(uri) as DeclaredApp;
    if (app.html !== undefined) {
      this.#host.resources.declare(appResource(app.declaration, app.html), `app ${JSON.stringify(uri)}`);
      return;
    }
    // The probe: its report URL (when the mock listens on HTTP) must be allowed by the view's CSP.
    const report = this.#origin === undefined ? undefined : `${this.#origin}${PROBE_EVENTS_PATH}`;
    const csp: AppCsp | undefined = this.#origin === undefined ? app.declaration.csp : { ...app.declaration.csp, connectDomains: [...(app.declaration.csp?.connectDomains ?? []), this.#origin] };
    const settings: ProbeSettings = typeof app.declaration.probe === "object" ? app.declaration.probe : {};
    const html = probePage({ app: uri, on: settings.on ?? {}, reportTool: PROBE_REPORT_TOOL, ...(report === undefined ? {} : { reportUrl: report }) });
    this.#host.resources.declare(appResource(app.declaration, html, csp), `app ${JSON.stringify(uri)}`);
  }

  /** Takes a report (from the report tool or the direct route): the events it holds, and what was wrong with it. */
  report(body: unknown): { taken: number; problems: string[] } {
    const b = body as { app?: unknown; instance?: unknown; events?: unknown } | null;
    if (b === null || typeof b !== "object" || typeof b.app !== "string") return { taken: 0, problems: [`a probe report is { app: "ui://...", instance, events: [...] }, received ${typeof body}`] };
    return this.events.add(b.app, typeof b.instance === "string" ? b.instance : "", b.events);
  }

  #reportStub(): Stub {
    return {
      id: `default:${PROBE_REPORT_TOOL}`,
      method: "tools/call",
      key: PROBE_REPORT_TOOL,
      matchers: [],
      responses: [
        {
          kind: "tool-result",
          isError: false,
          payload: (call: McpCall) => {
            const { taken, problems } = this.report(call.args);
            if (problems.length === 0) return { taken };
            // A broken report is an error the journal shows, and the view's host sees.
            return { content: [{ type: "text", text: `[mcpmock] ${taken} app event(s) taken; the rest refused: ${problems.slice(0, 5).join("; ")}` }], isError: true };
          },
        },
      ],
      priority: FALLBACK_PRIORITY,
      source: "default",
    };
  }
}
