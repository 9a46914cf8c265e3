// @modelcontextprotocol/server-memory on a fresh file: the path given as the first argument is
// emptied, then the server starts with MEMORY_FILE_PATH set to it, so a recording and its
// check both start from an empty graph (and nothing is written into node_modules).
import { rmSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: memory-server.mjs <memory file>");
rmSync(file, { force: true });
process.env.MEMORY_FILE_PATH = file;
await import("@modelcontextprotocol/server-memory/dist/index.js");
