// mockttp serving the same stub with forJsonRpcRequest.
import { getLocal } from "mockttp";
import { onStop, ready, RESULT } from "./common.mjs";

const server = getLocal();
await server.start();
await server.forJsonRpcRequest({ method: "tools/call" }).thenSendJsonRpcResult(RESULT);
ready(`${server.url}/mcp`);
onStop(() => server.stop());
