const t = performance.now();
await import("hono");
await import("@hono/node-server");
process.stdout.write(`${performance.now() - t}\n`);
