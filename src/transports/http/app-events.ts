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
import { showValue } from "../../values/errors.js";

/** The app a refused report names when it could not be read. */
const UNREAD = "(unread report)";

const CORS = { "access-control-allow-origin": "*", "cache-control": "no-store" };

/** Takes one report; answers what was taken, or 400/413 with the reason. */
export async function appEventsRoute(c: Context, apps: Apps, maxBody: number): Promise<Response> {
  const bytes = await readBody(c, maxBody);
  if (bytes === "too-large" || bytes === "cut") {
    const error = `a probe report is at most ${maxBody} bytes`;
    apps.events.refused(UNREAD, `${error}; a larger one was refused unread`);
    return Response.json({ error }, { status: 413, headers: { ...CORS, connection: "close" } });
  }
  let body: unknown;
  const text = new TextDecoder().decode(bytes);
  try {
    body = JSON.parse(text);
  } catch (error) {
    apps.events.refused(UNREAD, `a report that is not JSON (${(error as Error).message}): ${showValue(text, 80)}`);
    return Response.json({ error: "a probe report is JSON: { app, instance, events: [...] }" }, { status: 400, headers: CORS });
  }
  const { taken, problems } = apps.report(body);
  if (taken === 0 && problems.length > 0) {
    const app = (body as { app?: unknown } | null)?.app;
    apps.events.refused(typeof app === "string" ? app : UNREAD, `a report refused: ${problems.slice(0, 3).join("; ")}`);
  }
  return Response.json(problems.length === 0 ? { taken } : { taken, problems }, { status: problems.length > 0 && taken === 0 ? 400 : 200, headers: CORS });
}
