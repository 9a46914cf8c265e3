// mcpmock in proxy mode in front of a real server: nothing stubbed, every call goes upstream. argv: the upstream's URL.
import { McpMock } from "../../dist/index.js";
import { onStop, ready } from "./common.mjs";

const mock = await McpMock.start({ proxy: { target: process.argv[2] }, onUnmatched: "silent" });
ready(mock.url);
onStop(() => mock.close());
