/**
 * `POST /__mcpmock/app-events`: where the probe view reports directly, beside the MCP
 * endpoint, so what a host that never relays the view's calls did is still seen. A simple
 * cross-origin request (text/plain, no preflight) from the sandboxed view; the body is a
 * report, bounded in bytes like any POST.
 * @module
 */
import type { Context } from "hono";
import { readBody } from "./node-io.js";
import type { Apps } from "../../engine/apps.js";

const CORS = { "access-control-allow-origin": "*", "cache-control": "no-store" };

/** Takes one report; answers what was taken, or 400/413 with the reason. */
export async function appEventsRoute(c: Context, apps: Apps, maxBody: number): Promise<Response> {
  const bytes = await readBody(c, maxBody);
  if (bytes === "too-large" || bytes === "cut") return Response.json({ error: `a probe report is at most ${maxBody} bytes` }, { status: 413, headers: { ...CORS, connection: "close" } });
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return Response.json({ error: "a probe report is JSON: { app, instance, events: [...] }" }, { status: 400, headers: CORS });
  }
  const { taken, problems } = apps.report(body);
  return Response.json(problems.length === 0 ? { taken } : { taken, problems }, { status: problems.length > 0 && taken === 0 ? 400 : 200, headers: CORS });
}
