import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpMock, toolsCall } from "../src/index.ts";
const mock = await McpMock.start({ transport: "none", tools: [{ name: "search" }] });
mock.toolsCall("search").withArgs({ q: "cats" }).respondsWith("x");
const c = new Client({ name: "a", version: "1" }); await c.connect(mock.clientTransport());
await c.callTool({ name: "search", arguments: { q: "dogs" } });
try { mock.verify(toolsCall("search").withArgs({ q: "cats" })); } catch (e) { console.log("VERIFY:", e.message); }
await c.close(); await mock.close();
