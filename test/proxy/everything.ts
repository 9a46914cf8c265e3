/** The real server the proxy tests stand in front of: @modelcontextprotocol/server-everything, over stdio or Streamable HTTP. */
import { freePort, run, stop, type Spawned } from "../support/recording.js";

export const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";

/** The stdio upstream: a command the mock starts per upstream session. */
export const STDIO_UPSTREAM = { command: process.execPath, args: [EVERYTHING, "stdio"] } as const;

/** server-everything listening on a free port; `stop()` ends it. */
export async function everythingOverHttp(): Promise<{ url: string; stop: () => Promise<unknown>; server: Spawned }> {
  const port = await freePort();
  const server = run(process.execPath, [EVERYTHING, "streamableHttp"], { PORT: String(port) });
  await server.line(/listening on port/);
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stop(server), server };
}
