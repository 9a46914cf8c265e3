/**
 * jose, loaded the first time a signature is made or checked. Importing it costs about 55 ms, a
 * third of `import "mcpmock"`, and most mocks never see a JWT: the auth modules ask for it here,
 * in the async step that needs it, and so the cold start of a mock without OAuth does not pay.
 * @module
 */
type Jose = typeof import("jose");

let loading: Promise<Jose> | undefined;

/** The jose module, imported once, on the first call. */
export function jose(): Promise<Jose> {
  return (loading ??= import("jose"));
}
