/**
 * The SDK transport that reaches an upstream (where it is: `engine/proxy-target.ts`).
 * @module
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpMockError } from "../values/errors.js";
import type { ProxyTarget } from "../engine/proxy-target.js";
import { basicAuthorization } from "./secrets.js";

/**
 * The environment a stdio upstream starts with, in record, check and proxy mode alike: the
 * SDK's default one (HOME, PATH, ...) and `env` over it, never the whole of the mock's own
 * (a token in the recording shell must not reach a server that may echo it).
 */
export function upstreamEnvironment(env: Readonly<Record<string, string>> | undefined): Record<string, string> {
  return { ...getDefaultEnvironment(), ...(env ?? {}) };
}

/** The headers to send to an HTTP upstream and its URL without user information (fetch refuses one with it: they become a Basic authorization header). */
export function httpUpstream(target: string, headers: Readonly<Record<string, string>> | undefined): { readonly url: URL; readonly headers: Record<string, string> } {
  const url = new URL(target);
  const out: Record<string, string> = { ...(headers ?? {}) };
  const basic = basicAuthorization(url);
  if (basic !== undefined) {
    if (!Object.keys(out).some((name) => name.toLowerCase() === "authorization")) out["authorization"] = basic;
    url.username = "";
    url.password = "";
  }
  return { url, headers: out };
}
import { HttpUpstreamTransport } from "./http-client.js";
import { StdioUpstreamTransport } from "./stdio-client.js";

/** A new transport to the upstream (not started), for the SDK's client. A stdio child's stderr is kept by `stderr`. */
export function upstreamTransport(target: ProxyTarget, stderr?: (chunk: string) => void): Transport {
  if ("target" in target) {
    const { url, headers } = httpUpstream(target.target, target.headers);
    return new HttpUpstreamTransport(url, headers);
  }
  if (target.command === "") throw new McpMockError("proxy.command is empty.");
  return new StdioUpstreamTransport({
    command: target.command,
    args: [...(target.args ?? [])],
    env: upstreamEnvironment(target.env),
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
    ...(stderr === undefined ? {} : { stderr }),
  });
}
