/**
 * Where an upstream is, as the options name it: a real server's Streamable HTTP URL, or a
 * command that serves MCP on its stdio; its checks, and what a message may show of it (never
 * its credentials). Plain data: `upstream/` connects to it.
 * @module
 */
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";

/**
 * The real server a mock in proxy mode passes calls to: a Streamable HTTP endpoint (`target`,
 * with optional `headers` such as `Authorization`), or a command serving MCP on stdio (started
 * once per upstream session, ended by `close()`, with the SDK's default environment plus
 * `env`, not the whole of the mock's). Credentials (a secret-looking value in `headers` or
 * `env`, a URL's password and the Basic header made from it) are sent, and read `[redacted]`
 * in the journal, snapshots, `verbose` lines, reports and error messages; a client receives
 * the upstream's answers as it sent them. The rule: docs/guides/upstream-credentials.md.
 *
 * @example
 * ```ts
 * import { McpMock } from "mcpmock";
 * await using http = await McpMock.start({ proxy: { target: "http://127.0.0.1:3001/mcp" } });
 * await using stdio = await McpMock.start({ proxy: { command: "node", args: ["server.js", "stdio"], env: { API_KEY: "sk-0123456789" } } });
 * await using keyed = await McpMock.start({ proxy: { target: "http://127.0.0.1:3001/mcp", headers: { authorization: "Bearer sk-0123456789" } } });
 * ```
 * @category Starting
 */
export type ProxyTarget =
  | {
      /** The real server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
      readonly target: string;
      /** Headers sent with every request to it, e.g. `{ authorization: "Bearer ..." }`. */
      readonly headers?: Readonly<Record<string, string>>;
      /** An OAuth client provider (the SDK's): its access token is sent, refreshed when the server answers 401, and never shown. */
      readonly authProvider?: OAuthClientProvider;
    }
  | {
      /** The command that serves MCP on its stdin and stdout. */
      readonly command: string;
      /** Its arguments. */
      readonly args?: readonly string[];
      /** Environment variables added to the default ones (kept out of every report). */
      readonly env?: Readonly<Record<string, string>>;
      /** Its working directory (default: the mock's). */
      readonly cwd?: string;
    };

/** The problems of a `proxy` option, each with its fix (empty: it is good). */
export function proxyTargetProblems(value: unknown): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return ['proxy takes { target: "http://host:port/mcp" } or { command: "node", args: ["server.js"] }.'];
  const v = value as Record<string, unknown>;
  if ("target" in v === "command" in v) return ["proxy takes either target (a Streamable HTTP URL) or command (a stdio server), not both and not neither."];
  if ("target" in v) {
    if (typeof v["target"] !== "string" || !URL.canParse(v["target"]) || !/^https?:$/.test(new URL(v["target"]).protocol)) return [`proxy.target must be an http(s) URL such as "http://127.0.0.1:3001/mcp", received ${typeof v["target"] === "string" ? JSON.stringify(shownTarget(v["target"])) : shownTarget(v["target"])}.`];
    if (v["headers"] !== undefined && !isStringRecord(v["headers"])) return ["proxy.headers must be an object of strings."];
    return [];
  }
  const problems: string[] = [];
  if (typeof v["command"] !== "string" || v["command"] === "") problems.push("proxy.command must be a command to run, e.g. \"node\".");
  if (v["args"] !== undefined && !(Array.isArray(v["args"]) && v["args"].every((a) => typeof a === "string"))) problems.push("proxy.args must be an array of strings.");
  if (v["env"] !== undefined && !isStringRecord(v["env"])) problems.push("proxy.env must be an object of strings.");
  return problems;
}

function isStringRecord(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && Object.values(value).every((x) => typeof x === "string");
}

/** The upstream as messages name it: the URL without user, password or query; the command and its arguments. */
export function upstreamName(target: ProxyTarget): string {
  if ("target" in target) return shownTarget(target.target);
  return [target.command, ...(target.args ?? [])].join(" ");
}

/**
 * A target URL as a message may show it, whatever was given: without user information, query
 * or fragment (they may hold credentials), also when it does not parse (a bad port, a stray
 * space), where it is cut at its last `@` and its first `?` or `#`; a value that is no string
 * as JSON.
 */
export function shownTarget(target: unknown): string {
  if (typeof target !== "string") return JSON.stringify(target) ?? String(target);
  if (URL.canParse(target)) {
    const url = new URL(target);
    url.username = "";
    url.password = "";
    url.search = "";
    url.hash = "";
    return url.href;
  }
  const before = target.replace(/[?#][\s\S]*$/, "");
  const scheme = /^[A-Za-z][\w+.-]*:\/\//.exec(before)?.[0] ?? "";
  const at = before.lastIndexOf("@");
  return at >= scheme.length ? `${scheme}${before.slice(at + 1)}` : before;
}
