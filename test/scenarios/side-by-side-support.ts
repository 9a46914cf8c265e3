/**
 * What the two side-by-side tests (side-by-side.test.ts, side-by-side-auth.test.ts) share: running
 * a client written for the official runner, and the checks that both runners score.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** One runner's verdict on one scenario: its scored checks and its exit code. */
export interface Scored {
  checks: string[];
  exit: number | null;
}

/** Runs `node args...` from the project's root with `BROKEN` set, and resolves with its exit code. */
export function run(args: string[], broken: string): Promise<number | null> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, BROKEN: broken }, stdio: "ignore" });
    child.once("exit", (code) => done(code));
  });
}

/** The checks a runner scores (not the wire-schema check, nor INFO or SKIPPED), as sorted "id STATUS" lines. */
export function scored(checks: Array<{ id: string; status: string }>): string[] {
  return checks.filter((c) => c.id !== "wire-schema-valid" && ["SUCCESS", "FAILURE", "WARNING"].includes(c.status)).map((c) => `${c.id} ${c.status}`).sort();
}
