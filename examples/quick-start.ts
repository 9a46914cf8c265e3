/**
 * Quick start: a mock with one tool, two stubs, and the official MCP SDK client calling it
 * over real HTTP. Run it with `npm run example`.
 */
import { ANY, McpMock, text } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const tools = [
    {
      name: "add",
      description: "Adds two numbers",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
      },
    },
  ] as const;

  await using mock = await McpMock.start({ tools });
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  mock.toolsCall("add").withArgs(ANY).respondsWith(text("fallback"));
  log(`mock listening at ${mock.url}`);
  // The stubs written here; mock.explain() also lists the built-in answers (initialize, ping, */list ...).
  for (const stub of mock.stubs()) if (stub.source !== "default") log(`  ${stub.id}: ${stub.sentence}`);

  const client = new Client({ name: "quick-start", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const { tools: listed } = await client.listTools();
  log(`tools/list → ${listed.map((t) => t.name).join(", ")}`);

  const calls: Array<Record<string, unknown>> = [{ a: 1, b: 2 }, { a: 40, b: 2 }, { a: "one" }];
  for (const args of calls) {
    const result = await client.callTool({ name: "add", arguments: args });
    const first = (result.content as Array<{ type: string; text?: string }>)[0];
    // The whole answer: a schema rejection says which field broke which rule, and how to stub it.
    log(`tools/call add ${JSON.stringify(args)} → ${result.isError ? "isError: " : ""}${first?.text?.replaceAll("\n", "\n    ")}`);
  }
  await client.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
