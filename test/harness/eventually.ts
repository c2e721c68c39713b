/** Polls until fn returns a truthy value or the time runs out (for asynchronous effects, not for timing). */
export async function eventually<T>(
  fn: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  stepMs = 100,
): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, stepMs));
  }
  throw new Error(`condition not met in ${timeoutMs} ms${last ? `: ${String(last)}` : ''}`);
}
