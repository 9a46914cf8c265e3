// mcpmock as a user runs it. argv: sessions (stateless|stateful) responseMode (json|sse) stubs kind (tools|args|fn|placeholder),
// and anywhere: journal=N for journalSize, stream for the tool "stream" (a streams() answer of 10,000 notify steps, for the
// bench's stream row; its script is data the mock keeps, 0.94 MiB, so the other rows leave it out, as Hono keeps none).
// kind fn: the answer is a function of the call; placeholder: a definition's {{args...}} answer.
import { ANY, McpMock } from "../../dist/index.js";
import { onStop, ready } from "./common.mjs";

const argv = process.argv.slice(2);
const journal = argv.find((a) => a.startsWith("journal="));
const stream = argv.includes("stream");
const [sessions = "stateful", responseMode = "json", stubs = "1", kind = "tools"] = argv.filter((a) => a !== journal && a !== "stream");
const n = Number(stubs);
const tools = [...(kind === "tools" ? Array.from({ length: Math.max(1, n) }, (_, i) => ({ name: i === 0 ? "add" : `tool-${i}` })) : [{ name: "add" }]), ...(stream ? [{ name: "stream" }] : [])];
const options = { tools, sessions, responseMode, onUnmatched: "silent", ...(journal ? { journalSize: Number(journal.slice("journal=".length)) } : {}) };
const mock =
  kind === "placeholder"
    ? await McpMock.fromDefinition({ tools, responses: [{ tool: "add", result: { sum: "{{args.a}}{{args.b}}" } }] }, options)
    : await McpMock.start(options);
if (kind === "fn") {
  mock.toolsCall("add").withArgs(ANY).respondsWith((call) => ({ sum: call.args.a + call.args.b }));
} else if (kind === "placeholder") {
  // answered by the definition
} else if (kind === "tools") {
  for (let i = 1; i < n; i++) mock.toolsCall(`tool-${i}`).withArgs(ANY).respondsWith({ sum: i });
  mock.toolsCall("add").withArgs(ANY).respondsWith({ sum: 3 });
} else {
  // n stubs on one tool, each for other arguments; the call hits the one in the middle.
  for (let i = 0; i < n; i++) mock.toolsCall("add").withArgs({ a: i === Math.floor(n / 2) ? 1 : 1000 + i, b: 2 }).respondsWith({ sum: 3 });
}
if (stream) {
  mock.toolsCall("stream").streams((s) => {
    for (let i = 0; i < 10_000; i++) s.notify("notifications/message", { level: "info", data: i });
    return s.result({ sum: 3 });
  });
}
ready(mock.url);
onStop(() => mock.close());
