/**
 * `mcpmock serve`: a definition over Streamable HTTP and the legacy HTTP+SSE transport, with
 * the admin API beside them.
 * @module
 */
import { whenParentGoes } from "./parent-watch.js";
import { basename } from "node:path";
import { McpMock } from "../mock.js";
import { allowedHostNames } from "../transports/http/gate.js";
import { portOption, UsageError, type Command } from "./command.js";
import { splitCommand } from "./record.js";
import { loadDefinition } from "../definition/load.js";
import { startupListing } from "./listing.js";
import { styleFor } from "./style.js";
import { watchDefinition } from "./watch.js";
import { upstreamName, type ProxyTarget } from "../proxy-target.js";
import { CREDENTIAL_HELP, credentialOptions, shownAs } from "./credentials.js";

/**
 * Takes `--proxy -- <command> [args...]` off a serve command line: the rest is mcpmock's, the
 * part after `--` the upstream's command (`--proxy <url>` stays an ordinary option).
 */
export function splitProxyCommand(args: readonly string[]): { args: string[]; command?: string[] } {
  const at = args.indexOf("--proxy");
  if (at === -1 || (args[at + 1] !== "--" && args[at + 1] !== undefined)) return { args: [...args] };
  // What follows `--proxy` is `-- <command> [args...]`, split as record and check split theirs.
  const { command = [] } = splitCommand(args.slice(at + 1));
  if (command.length === 0) throw new UsageError("--proxy needs an upstream: --proxy http://127.0.0.1:3001/mcp, or --proxy -- <command> [args...].");
  return { args: args.slice(0, at), command };
}

/** The upstream the command line names, if any, with its `--header` or `--env` credentials. */
function proxyOf(url: string | undefined, command: readonly string[] | undefined, values: { readonly header?: readonly string[] | undefined; readonly env?: readonly string[] | undefined }): ProxyTarget | undefined {
  if (command === undefined && url === undefined) {
    if (values.header !== undefined || values.env !== undefined) throw new UsageError(`--${values.header !== undefined ? "header" : "env"} is for the upstream of proxy mode: give --proxy <url> (for --header) or --proxy -- <command> [args...] (for --env).`);
    return undefined;
  }
  const credentials = credentialOptions(values, command === undefined, "serve --proxy");
  if (command !== undefined) return { command: command[0] as string, args: command.slice(1), ...credentials };
  if (url === undefined || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`--proxy takes the real server's URL, like --proxy http://127.0.0.1:3001/mcp, or --proxy -- <command> [args...]; received ${url === undefined ? "none" : shownAs(url)}`);
  return { target: url, ...credentials };
}

export const serve: Command = {
  options: ["port", "host", "stateless", "sse", "verbose", "watch", "no-admin", "no-legacy-sse", "auth", "admin-host", "allowed-host", "proxy", "header", "env"],
  help: `mcpmock serve <definition.json> [options]
mcpmock serve [definition.json] --proxy <url> | --proxy -- <command> [args...]

Serves the definition over Streamable HTTP (and the 2024-11-05 HTTP+SSE transport at /sse)
and prints the URLs, the declared tools, resources and prompts, then one line per stub.
  --port N          port (default 0: a free one)
  --host H          interface (default 127.0.0.1)
  --stateless       no sessions
  --sse             answer every request as an SSE stream
  --verbose         log each request and its answer on stderr
  --watch           reload the definition when the file changes (a broken edit is reported
                    and the last good one keeps answering; the journal stays)
  --no-admin        no admin REST API
  --no-legacy-sse   no HTTP+SSE transport (GET /sse answers 404)
  --auth            protect the endpoint with OAuth 2.1 and serve an authorization server beside
                    it (the definition's "auth" section if it has one, else no scope required)
  --admin-host H    let non-loopback clients use the admin API (when --host is not loopback)
  --allowed-host H  a Host header to answer (repeatable; default: loopback names, and beyond
                    loopback this machine's own names)
  --proxy URL       proxy mode: what no stub answers goes to this real server (Streamable HTTP);
  --proxy -- CMD..  or to this command serving MCP on stdio (last: the rest is its command line)
${CREDENTIAL_HELP}
Admin API: GET/POST /__admin/stubs, DELETE /__admin/stubs/:id, GET /__admin/requests,
GET /__admin/requests/unmatched, GET /__admin/sessions, POST /__admin/verify, POST /__admin/notify,
POST /__admin/recordings/snapshot (proxy mode: what the upstream answered, as a definition),
POST /__admin/reset.
Inspector: open GET /__admin/ui in a browser (stubs, the live journal, misses, sessions).`,

  async run(file, values, proxyCommand) {
    const proxy = proxyOf(values.proxy, proxyCommand, values);
    if (values.watch && file === "") throw new UsageError("--watch watches a definition file: give one (mcpmock serve stubs.json --proxy <url> --watch), or leave --watch out.");
    const port = portOption(values.port);
    const adminHost = values["admin-host"];
    const remote = adminHost !== undefined && !/^(127\.|localhost$|::1$)/.test(adminHost);
    // Beyond loopback the admin API needs a token: a fresh one each start, printed below.
    const token = crypto.randomUUID();
    const host = values.host ?? "127.0.0.1";
    const allowedHosts = values["allowed-host"];
    // Read and checked once for what is said at start (its auth section, the listing): a save
    // landing while the server starts cannot make the listing disagree with what is served.
    const definition = file === "" ? {} : loadDefinition(file, { proxied: proxy !== undefined }).definition;
    const authSection = definition.auth !== undefined && definition.auth !== false;
    const mock = await McpMock.fromDefinition(file === "" ? {} : file, {
      ...(proxy ? { proxy } : {}),
      port,
      host,
      ...(allowedHosts === undefined ? {} : { allowedHosts }),
      ...(values.stateless ? { sessions: "stateless" as const } : {}),
      ...(values.sse ? { responseMode: "sse" as const } : {}),
      verbose: values.verbose === true,
      ...(values["no-legacy-sse"] ? { legacySse: false } : {}),
      ...(values.auth && !authSection ? { auth: true } : {}),
      admin: values["no-admin"] ? false : remote ? { remote, token } : { remote },
      // Its users write JSON: miss reports say what to add to the file.
      ...(file === "" ? {} : { hintsFile: basename(file) }),
    });
    const unwatch = values.watch ? watchDefinition(file, mock, { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) }) : undefined;
    // Handlers first: a supervisor may stop the server as soon as it sees the URL.
    const stop = (): void => {
      unwatch?.();
      void mock.close().then(() => process.exit(0));
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    // npx does not always forward signals: when the parent goes away, so does the server.
    whenParentGoes(stop);
    process.stdout.write(`mcpmock serving ${file === "" ? "nothing but the upstream" : file} at ${mock.url}
`);
    if (proxy) process.stdout.write(`proxy mode: what no stub answers goes to ${upstreamName(proxy)}
`);
    process.stdout.write(`Host names answered: ${allowedHostNames({ host, ...(allowedHosts === undefined ? {} : { allowedHosts }) }).join(", ")} (--allowed-host to add one)\n`);
    if (!values["no-legacy-sse"]) process.stdout.write(`HTTP+SSE (2024-11-05) at ${mock.sseUrl}\n`);
    if (!values["no-admin"]) process.stdout.write(`admin API at ${mock.url.replace(/\/[^/]*$/, "")}/__admin\n`);
    if (!values["no-admin"]) process.stdout.write(`inspector at ${mock.url.replace(/\/[^/]*$/, "")}/__admin/ui (open it in a browser)\n`);
    if (values.watch) process.stdout.write(`watching ${file}: saved changes are served at once\n`);
    if (!values["no-admin"] && remote) process.stdout.write(`admin token: ${token} (clients beyond loopback send Authorization: Bearer ${token})\n`);
    if (values.auth || authSection) {
      const origin = new URL(mock.url).origin;
      process.stdout.write(`authorization: a bearer token is required; authorization server ${origin} (metadata at ${origin}/.well-known/oauth-authorization-server)\n`);
    }
    process.stdout.write(startupListing(definition, mock, styleFor(process.stdout)));
    return undefined;
  },
};
