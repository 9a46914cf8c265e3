/**
 * Waiting on output that arrives in pieces (a child's stdout, a PassThrough): call `wake()`
 * after every piece; `until()` resolves with the first thing `find()` returns, or rejects
 * after the timeout (or when `failOn` settles first) with a message saying what was seen.
 */
export class Waiters {
  readonly #checks = new Set<() => void>();

  /** Something arrived: every pending `until()` looks again. */
  wake(): void {
    for (const check of [...this.#checks]) check();
  }

  until<T>(find: () => T | undefined, timeoutMs: number, timedOut: () => string, failOn?: Promise<string>): Promise<T> {
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.#checks.delete(check);
      };
      const check = (): void => {
        const found = find();
        if (found === undefined) return;
        finish();
        resolve(found);
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(timedOut()));
      }, timeoutMs);
      void failOn?.then((message) => {
        if (!this.#checks.has(check)) return;
        finish();
        reject(new Error(message));
      });
      this.#checks.add(check);
      check();
    });
  }
}
