// A stdio server that, on each tools/call, first tells the session its tool list changed (a
// notification of the session's, tied to no request), then answers: over stdio, that
// notification lands while the call is in flight.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "list-changed", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
server.registerTool("ping", { inputSchema: {} }, async () => {
  server.sendToolListChanged();
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { content: [{ type: "text", text: "pong" }] };
});
await server.connect(new StdioServerTransport());
