/**
 * The probe view's page: a static HTML file (src/probe/view, bundled with the official
 * ext-apps View SDK by scripts/probe-view.mjs into dist/probe/view.html at build time),
 * served as an app's HTML with the app's settings in a JSON script element.
 * @module
 */
import { readFileSync } from "node:fs";
import { McpMockError } from "../values/errors.js";

/** The app-only tool the probe reports through (the host relays it to the mock). */
export const PROBE_REPORT_TOOL = "mcpmock_probe_report";

/** Where the probe also reports directly, beside the MCP endpoint, when the mock listens on HTTP. */
export const PROBE_EVENTS_PATH = "/__mcpmock/app-events";

/** Where the settings go in the page. */
const SETTINGS_SLOT = "<!--mcpmock-probe-settings-->";

/** The probe's settings, as the view reads them. */
export interface ProbeConfig {
  readonly app: string;
  readonly on: Readonly<Record<string, readonly { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }[]>>;
  readonly reportTool: string;
  readonly reportUrl?: string;
}

let template: string | undefined;

/** The built page: beside the bundles in dist/, or (running from src/, as the tests do) the repository's dist/. */
function page(): string {
  if (template !== undefined) return template;
  const places = [new URL("./probe/view.html", import.meta.url), new URL("../../dist/probe/view.html", import.meta.url)];
  for (const place of places) {
    try {
      template = readFileSync(place, "utf8");
      return template;
    } catch {
      // the next place
    }
  }
  throw new McpMockError(`the probe view is missing (looked in ${places.map((p) => p.pathname).join(" and ")}); reinstall mcpmock, or run npm run build in its repository.`);
}

/** The probe's HTML for one app. */
export function probePage(config: ProbeConfig): string {
  const json = JSON.stringify(config).replace(/</g, "\\u003c");
  return page().replace(SETTINGS_SLOT, () => `<script type="application/json" id="mcpmock-probe">${json}</script>`);
}
