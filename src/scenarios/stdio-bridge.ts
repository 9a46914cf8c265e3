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
import type { MessageTap } from "./message-tap.js";
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
 * Listens on a free loopback port for the children the client spawns and serves `mock` over
 * stdio on their connections, one at a time: a newer child takes over from an older one, whose
 * side finishes what is in flight first (the v2 client probes the era on a short-lived sibling
 * process, then starts its own). With `tap`, the client's lines pass through it (recorded, and
 * answered there where the scenario takes them).
 */
export async function startStdioBridge(mock: McpMock, tap?: MessageTap): Promise<StdioBridge> {
  let connected: Socket | undefined;
  let served = Promise.resolve();
  const serve = async (socket: Socket): Promise<void> => {
    if (socket.destroyed) return;
    const lines = tap?.lines((line) => socket.write(line));
    if (lines) {
      socket.pipe(lines);
      socket.once("close", () => lines.writableEnded || lines.end());
    }
    // The child's stdin closed: the mock finishes what is in flight, then its side ends.
    await mock.serveStdio({ input: lines ?? socket, output: socket, log: quietLog() });
    socket.end();
  };
  const server: Server = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on("error", () => socket.destroy());
    connected?.destroy();
    connected = socket;
    // A child the mock cannot serve (it is closing) is let go; the next one is still served.
    served = served.then(() => serve(socket)).catch(() => void socket.destroy());
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
