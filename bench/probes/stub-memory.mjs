// Heap bytes per stub: 10,000 stubs on distinct arguments (run with --expose-gc).
import { McpMock } from "../../dist/index.js";
const n = Number(process.argv[2] ?? 10000);
const mock = await McpMock.start({ tools: [{ name: "add" }] });
globalThis.gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < n; i++) mock.toolsCall("add").withArgs({ a: i, b: 2 }).respondsWith({ sum: i + 2 });
globalThis.gc();
const after = process.memoryUsage().heapUsed;
await mock.close();
process.stdout.write(`${(after - before) / n}\n`);
