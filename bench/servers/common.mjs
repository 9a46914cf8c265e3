// Shared by the bench servers: the request they all answer and a ready line for the runner.
export const RESULT = { content: [{ type: "text", text: '{"sum":3}' }] };
export function ready(url) {
  process.stdout.write(`READY ${url}\n`);
}
export function onStop(close) {
  process.on("SIGTERM", async () => {
    await close();
    process.exit(0);
  });
}
