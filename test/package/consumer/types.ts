/**
 * Type-checked in the temporary project with tsc (skipLibCheck: false) against the installed
 * dist/*.d.ts: the declarations compile, and typed stubs still refuse wrong arguments.
 */
import { McpMock, ANY, text, toolsCall, VerificationError, type McpMockOptions, type JournalEntry, type MockDefinition } from "mcpmock";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const tools = [{ name: "add", inputSchema: { type: "object",
  properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }] as const;
const options: McpMockOptions<typeof tools> = { tools, onUnmatched: "silent" };

export async function typed(): Promise<void> {
  await using mock = await McpMock.start(options);
  mock.toolsCall("add").withArgs({ a: 1, b: 2 }).respondsWith({ sum: 3 });
  // @ts-expect-error "c" is not an argument of add
  mock.toolsCall("add").withArgs({ a: 1, c: 2 });
  // @ts-expect-error "a" is a number
  mock.toolsCall("add").withArgs({ a: "1", b: 2 });
  // @ts-expect-error "sub" is not a declared tool
  mock.toolsCall("sub");
  mock.toolsCall("add").respondsWith((call) => ({ sum: call.args.a + call.args.b }));
  mock.toolsCall("add").withArgs({ a: ANY, b: 2 }).respondsWith(text("any a"));
  const client = new Client({ name: "types", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
  const entries: JournalEntry[] = mock.verify(toolsCall("add"));
  const error: VerificationError | undefined = undefined;
  const definition: MockDefinition = { tools: [{ name: "add" }], responses: [{ tool: "add", result: { sum: 3 } }] };
  const fromFile: McpMock = await McpMock.fromDefinition(definition);
  await fromFile.close();
  void [entries, error];
}
