/**
 * The SDK transport that reaches an upstream (where it is: `proxy-target.ts`, beside the options).
 * @module
 */
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpMockError } from "../values/errors.js";
import type { ProxyTarget } from "../proxy-target.js";

/** A new SDK transport to the upstream (not started). A stdio child's stderr is kept by `stderr`. */
export function upstreamTransport(target: ProxyTarget, stderr?: (chunk: string) => void): Transport {
  if ("target" in target) {
    const url = new URL(target.target);
    const headers: Record<string, string> = { ...(target.headers ?? {}) };
    // fetch refuses a URL with credentials: they become a Basic authorization header.
    if (url.username !== "" || url.password !== "") {
      headers["authorization"] ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
      url.username = "";
      url.password = "";
    }
    return new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  }
  if (target.command === "") throw new McpMockError("proxy.command is empty.");
  const transport = new StdioClientTransport({
    command: target.command,
    args: [...(target.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(target.env ?? {}) },
    stderr: "pipe",
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  });
  transport.stderr?.on("data", (chunk: Buffer) => stderr?.(chunk.toString("utf8")));
  return transport;
}
