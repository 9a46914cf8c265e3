import { test, expect } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpMock } from "../src/index.js";

test("spike", async () => {
  await using mock = await McpMock.start({
    tools: [{ name: "echo", inputSchema: { type: "object", properties: { message: { type: "string" } } } }, { name: "ask", inputSchema: { type: "object" } }],
    resources: [{ uri: "test://a", name: "a", text: "A" }],
    prompts: [{ name: "p" }],
  });
  mock.toolsCall("echo").respondsWith((call) => String(call.args["message"]));
  mock.toolsCall("ask").streams((s) => s.progress(1, 2).log("info", "asking").request("elicitation/create", { message: "Sure?", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } }).result((call) => `ok=${JSON.stringify(call.answer)}`));
  const log: string[] = [];
  const fetchLog = async (input: string | URL | Request, init?: RequestInit) => {
    const res = await fetch(input, init);
    log.push(`>>> ${init?.method} ${String(init?.body ?? "").slice(0, 300)}\n<<< ${res.status} ${(await res.clone().text()).slice(0, 500)}`);
    return res;
  };
  const client = new Client({ name: "c", version: "1" }, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { ok: true } }));
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url), { fetch: fetchLog }));
    console.log(JSON.stringify(await client.listTools()));
    console.log(JSON.stringify(await client.callTool({ name: "echo", arguments: { message: "hi" } })));
    console.log(JSON.stringify(await client.callTool({ name: "ask", arguments: {} }, { onprogress: (p) => console.log("progress", p) } as never)));
    console.log(JSON.stringify(await client.readResource({ uri: "test://a" })));
    try { await client.readResource({ uri: "test://nope" }); } catch (e) { console.log("notfound", (e as {code:number}).code); }
    console.log(JSON.stringify(await client.listPrompts()));
    await client.close();
  } finally {
    console.log(log.join("\n"));
  }
});
