// mcpmock in proxy mode in front of a real server: nothing stubbed, every call goes upstream.
// argv: the upstream's URL, and journal=N anywhere for journalSize.
import { McpMock } from "../../dist/index.js";
import { onStop, ready } from "./common.mjs";

const argv = process.argv.slice(2);
const journal = argv.find((a) => a.startsWith("journal="));
const [target] = argv.filter((a) => a !== journal);
const mock = await McpMock.start({ proxy: { target }, onUnmatched: "silent", ...(journal ? { journalSize: Number(journal.slice("journal=".length)) } : {}) });
ready(mock.url);
onStop(() => mock.close());
