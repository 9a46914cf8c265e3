/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension, specification 2026-01-26, SEP-1865):
 * its wire facts. An app is a `ui://` resource of mime type `text/html;profile=mcp-app`
 * whose `_meta.ui` says how the host sandboxes it; a tool names its app in `_meta.ui`
 * (and the flat, older `_meta["ui/resourceUri"]`). The extension is advertised in
 * `capabilities.extensions` (at `initialize`, and in 2026-07-28's `server/discover`).
 * @module
 */

/** The extension's identifier, the key under `capabilities.extensions`. */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";

/** The mime type of an app's HTML. */
export const APP_MIME_TYPE = "text/html;profile=mcp-app";

/** The URI scheme every app resource uses. */
export const APP_URI_SCHEME = "ui://";

/** The flat `_meta` key older hosts read a tool's app from. */
export const FLAT_RESOURCE_URI_KEY = "ui/resourceUri";

/** Who may call a tool: the model, the app (its view, through the host), or both. */
export const VISIBILITIES: readonly string[] = ["model", "app"];

/** The `csp` fields of an app's `_meta.ui`: each a list of origins. */
export const CSP_FIELDS: readonly string[] = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"];

/** The `permissions` an app may ask for (each an empty object when asked). */
export const PERMISSIONS: readonly string[] = ["camera", "microphone", "geolocation", "clipboardWrite"];

/** What the server advertises for the extension. */
export function uiExtensionSettings(): Record<string, unknown> {
  return { mimeTypes: [APP_MIME_TYPE] };
}

/**
 * Adds the ui extension to a capabilities object (in place, beside any other extension
 * already there), and returns it.
 */
export function withUiExtension(capabilities: Record<string, unknown>): Record<string, unknown> {
  const extensions = capabilities["extensions"];
  capabilities["extensions"] = { ...(extensions !== null && typeof extensions === "object" ? extensions : {}), [UI_EXTENSION]: uiExtensionSettings() };
  return capabilities;
}

/** Whether client capabilities declare the ui extension. */
export function declaresUi(capabilities: unknown): boolean {
  const extensions = (capabilities as { extensions?: unknown } | null | undefined)?.extensions;
  return extensions !== null && typeof extensions === "object" && (extensions as Record<string, unknown>)[UI_EXTENSION] !== undefined;
}
