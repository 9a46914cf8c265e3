/**
 * Drives `mcpmock serve` through its admin REST API with plain fetch, as a test in any
 * language would: add a stub, call the MCP endpoint, verify, reset.
 * Run it with `npx tsx examples/admin-api.ts` (it starts and stops the server itself).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // The built command (dist/cli.js): in the installed package as in a clone after `npm run build`.
  const server = spawn(process.execPath, ["dist/cli.js", "serve", "examples/weather.mock.json"], { cwd: root });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      server.stdout.on("data", (chunk: Buffer) => {
        out += String(chunk);
        const found = /at (http:\/\/\S+\/mcp)/.exec(out);
        if (found) resolve(found[1] as string);
      });
      server.once("exit", (code) => reject(new Error(`mcpmock serve exited with ${code}`)));
    });
    const admin = url.replace(/\/mcp$/, "/__admin");
    log(`MCP endpoint ${url}, admin API ${admin}`);

    // 1. Add a stub: a definition fragment, the same format as the file.
    const added = await fetch(`${admin}/stubs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ responses: [{ tool: "get_weather", args: { city: "Oslo" }, result: { temp: -3 } }] }),
    });
    log(`POST /__admin/stubs → ${added.status} ${JSON.stringify(await added.json())}`);

    // 2. The client under test talks MCP (here: raw JSON-RPC over HTTP).
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
    const init = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "any-language", version: "1" } } }),
    });
    const session = init.headers.get("mcp-session-id") as string;
    await init.text();
    const call = await fetch(url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_weather", arguments: { city: "Oslo" } } }),
    });
    log(`tools/call get_weather Oslo → ${JSON.stringify(((await call.json()) as { result: unknown }).result)}`);

    // 3. Verify what the client did.
    const verify = await fetch(`${admin}/verify`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pattern: { tool: "get_weather", args: { city: "Oslo" } }, count: 1 }),
    });
    log(`POST /__admin/verify → ${verify.status} ${JSON.stringify(await verify.json())}`);

    // 4. Back to the definition's stubs for the next test.
    log(`POST /__admin/reset → ${(await fetch(`${admin}/reset`, { method: "POST" })).status}`);
  } finally {
    server.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
