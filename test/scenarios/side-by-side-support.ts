/**
 * What the side-by-side tests (side-by-side*.test.ts) share: running a client written for the
 * official runner, the checks that both runners score, and running several runs at once.
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

/**
 * A queue that runs at most `width` jobs at once, in the order they were given. The side-by-side
 * files start every case's two runs when they load and let each test await its own: most of a run
 * is process start-up and waiting, so a few at once fill both cores where one at a time leaves one idle.
 */
export function limiter(width: number): <T>(job: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (job) => {
    if (active < width) active++;
    else await new Promise<void>((go) => waiting.push(go)); // a finished job hands its place over
    try {
      return await job();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** A promise started before the test that awaits it: its rejection waits for that test instead of being reported as unhandled. */
export function started<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
