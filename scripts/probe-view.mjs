/**
 * Builds the probe view (src/probe/view, on the official ext-apps View SDK) into one static
 * HTML file with its script inline, dist/probe/view.html: hosts load an app's HTML as one
 * document, often with no network. The mock puts each app's settings in its slot.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

export async function buildProbeView(root, dist) {
  const result = await build({
    entryPoints: [join(root, "src/probe/view/probe-view.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const script = result.outputFiles[0].text.replace(/<\/script/gi, "<\\/script");
  const html =
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>mcpmock probe</title>' +
    "<style>body{font:13px system-ui,sans-serif;margin:8px}ol{margin:0;padding-left:20px}</style></head>\n" +
    '<body><strong>mcpmock probe</strong><ol id="events"></ol>\n<!--mcpmock-probe-settings-->\n<script>' + script + "</script></body></html>\n";
  mkdirSync(join(dist, "probe"), { recursive: true });
  writeFileSync(join(dist, "probe/view.html"), html);
}
