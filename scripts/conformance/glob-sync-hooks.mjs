// The resolve hook glob-sync-shim.mjs registers: "fs" imported from the conformance package
// resolves to fs-with-glob-sync.mjs; every other import is untouched.
const FACADE = new URL("./fs-with-glob-sync.mjs", import.meta.url).href;
const SUITE = "/node_modules/@modelcontextprotocol/conformance/";

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes(SUITE) ?? false;
  if (fromSuite && (specifier === "fs" || specifier === "node:fs")) return { url: FACADE, shortCircuit: true };
  return next(specifier, context);
}
