/**
 * The inspector page, `GET /__admin/ui`: plain HTML, CSS and a script, kept as files in
 * `ui/` beside this module (src/admin/ui in the repository; scripts/build.mjs copies them to
 * dist/ui, beside the bundles), read once and served with a policy that lets the page load
 * nothing but its own files and talk to nothing but the mock. No CDN: it works offline.
 * @module
 */
import { readFileSync } from "node:fs";
import { McpMockError } from "../values/errors.js";

/** The page's files and their types; nothing else under /__admin/ui is served. */
const ASSETS: Readonly<Record<string, string>> = {
  "index.html": "text/html; charset=utf-8",
  "inspector.css": "text/css; charset=utf-8",
  "inspector.js": "text/javascript; charset=utf-8",
};

/** Own files only, no inline script, no framing, fetches and the feed to this origin. */
const POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const cache = new Map<string, string>();

function read(name: string): string {
  let text = cache.get(name);
  if (text === undefined) {
    const url = new URL(`./ui/${name}`, import.meta.url);
    try {
      text = readFileSync(url, "utf8");
    } catch (error) {
      throw new McpMockError(`the inspector's ${name} is missing at ${url.pathname} (${(error as Error).message}); reinstall mcpmock, or run npm run build in its repository.`);
    }
    cache.set(name, text);
  }
  return text;
}

/** The answer for `/__admin/ui/<name>` (`""` or `index.html` for the page), or `undefined` for a name that is not one of its files. */
export function inspectorAsset(name: string): Response | undefined {
  const file = name === "" ? "index.html" : name;
  const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
  if (type === undefined) return undefined;
  return new Response(read(file), {
    headers: { "content-type": type, "content-security-policy": POLICY, "x-content-type-options": "nosniff", "cache-control": "no-cache", "referrer-policy": "no-referrer" },
  });
}
