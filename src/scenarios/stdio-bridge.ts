/**
 * Stdio for a scenario: the client under test spawns a small Node process whose stdin and
 * stdout are joined, through a loopback socket, to the scenario's mock in this process. The
 * client sees a real stdio server (a child it starts and ends); the journal the verdict reads
 * stays here.
 * @module
 */
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import type { McpMock } from "../index.js";
import type { ScenarioStdioCommand } from "./scenario.js";

/**
 * The child's program (run with `node -e`): stdin to the socket, the socket to stdout, and exit
 * when the mock's side ends. Inline, so nothing but Node itself has to be found on disk.
 */
const BRIDGE_SOURCE = [
  'const socket = require("node:net").connect(Number(process.argv[1]), "127.0.0.1");',
  "process.stdin.pipe(socket);",
  "socket.pipe(process.stdout);",
  'socket.on("close", () => process.exit(0));',
  'socket.on("error", (error) => { process.stderr.write("[mcpmock] scenario stdio bridge: " + error.message + "\\n"); process.exit(1); });',
].join("\n");

/** A bridge listening for its one child. */
export interface StdioBridge {
  readonly command: ScenarioStdioCommand;
  close(): Promise<void>;
}

/** Log lines of the mock's stdio side go nowhere: the verdict says what matters. */
function quietLog(): Writable {
  return new Writable({ write: (_chunk, _encoding, done) => done() });
}

/**
 * Listens on a free loopback port for the child the client spawns and serves `mock` over stdio
 * on its connection. A mock serves one stdio connection: a second child is refused (its
 * socket closes at once, and the child exits).
 */
export async function startStdioBridge(mock: McpMock): Promise<StdioBridge> {
  let connected: Socket | undefined;
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    if (connected) {
      socket.destroy();
      return;
    }
    connected = socket;
    socket.on("error", () => socket.destroy());
    // The child's stdin closed: the mock finishes what is in flight, then its side ends.
    void mock.serveStdio({ input: socket, output: socket, log: quietLog() }).then(() => socket.end());
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as AddressInfo).port;
  return {
    command: { command: process.execPath, args: ["-e", BRIDGE_SOURCE, String(port)] },
    close: () =>
      new Promise<void>((done) => {
        connected?.destroy();
        server.close(() => done());
      }),
  };
}
