/**
 * The SDK transport that reaches an upstream (where it is: `engine/proxy-target.ts`).
 * @module
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpMockError } from "../values/errors.js";
import type { ProxyTarget } from "../engine/proxy-target.js";
import { HttpUpstreamTransport } from "./http-client.js";
import { StdioUpstreamTransport } from "./stdio-client.js";

/** A new transport to the upstream (not started), for the SDK's client. A stdio child's stderr is kept by `stderr`. */
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
    return new HttpUpstreamTransport(url, headers);
  }
  if (target.command === "") throw new McpMockError("proxy.command is empty.");
  return new StdioUpstreamTransport({
    command: target.command,
    args: [...(target.args ?? [])],
    env: { ...getDefaultEnvironment(), ...(target.env ?? {}) },
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    ...(stderr === undefined ? {} : { stderr }),
  });
}
