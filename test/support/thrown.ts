/** The message of what `run` throws; the test fails, saying so, when nothing is thrown. */
export function thrownMessage(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected a throw, but nothing was thrown");
}
