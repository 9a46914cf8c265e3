/**
 * Where the browser tests find a Chromium, so that `npm ci && npm test` passes on a machine with
 * Node and nothing else:
 * 1. `MCPMOCK_CHROMIUM`, when set, names the binary (a Chromium or Chrome); it must exist.
 * 2. Else the system's Chromium (`/usr/bin/chromium`, Debian's package; `MCPMOCK_SYSTEM_CHROMIUM`
 *    names another place, which is how a test points the search away from it).
 * 3. Else the one `@sparticuz/chromium` (a dev dependency) ships: a brotli-packed headless build
 *    that it unpacks to the temporary folder (`/tmp/chromium`) on first use, in about 7 s.
 * When none can be had, the error names the one command that fixes it.
 */
import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import { promisify } from "node:util";

/** Debian's `chromium` package puts the browser here. */
export const SYSTEM_CHROMIUM = "/usr/bin/chromium";

/** Which Chromium the browser tests use, and where it came from. */
export interface ChromiumFound {
  readonly path: string;
  readonly source: "MCPMOCK_CHROMIUM" | "system" | "@sparticuz/chromium";
}

/** The environment the search reads (process.env by default). */
type Env = Readonly<Record<string, string | undefined>>;

const run = promisify(execFile);

/** Resolves to the Chromium to launch, or rejects with a message that names the fix. */
export async function findChromium(env: Env = process.env): Promise<ChromiumFound> {
  const named = env["MCPMOCK_CHROMIUM"];
  if (named) {
    if (!existsSync(named)) throw new Error(`[mcpmock tests] MCPMOCK_CHROMIUM names ${named}, which does not exist: set it to a Chromium or Chrome binary, or unset it to use ${SYSTEM_CHROMIUM} or the @sparticuz/chromium dev dependency.`);
    return { path: named, source: "MCPMOCK_CHROMIUM" };
  }
  const system = env["MCPMOCK_SYSTEM_CHROMIUM"] ?? SYSTEM_CHROMIUM;
  if (existsSync(system)) return { path: system, source: "system" };
  return { path: await packagedChromium(), source: "@sparticuz/chromium" };
}

/** The package's browser, unpacked once; a half-written copy (an interrupted unpack) is unpacked again. */
async function packagedChromium(): Promise<string> {
  let chromium: { executablePath(): Promise<string> };
  try {
    chromium = (await import("@sparticuz/chromium")).default;
  } catch (error) {
    throw new Error(`[mcpmock tests] no Chromium for the browser tests: ${SYSTEM_CHROMIUM} is absent and the @sparticuz/chromium dev dependency is not installed (${(error as Error).message}). Run \`npm ci\`, which installs it.`);
  }
  for (let attempt = 1; ; attempt++) {
    const path = await chromium.executablePath();
    try {
      await run(path, ["--version"], { timeout: 20_000 });
      return path;
    } catch (error) {
      rmSync(path, { force: true });
      if (attempt === 2) {
        throw new Error(`[mcpmock tests] the Chromium that @sparticuz/chromium ships does not run on this machine (${(error as Error).message.split("\n")[0]}). Run \`apt-get install -y --no-install-recommends chromium\`, which installs ${SYSTEM_CHROMIUM}.`);
      }
    }
  }
}
