const t = performance.now();
await import("../../dist/index.js");
process.stdout.write(`${performance.now() - t}\n`);
