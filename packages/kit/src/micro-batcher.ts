/** One item's outcome in a batch: its value, or its own error. */
export type BatchOutcome<O> = { ok: O } | { err: unknown };

/**
 * Groups calls that arrive while a batch is being written into the next batch: one write of up to
 * `max` items instead of one per call, with no timer (a lone call goes at once; under load the
 * batches grow by themselves). Each caller gets its own item's outcome; when `run` throws, every
 * item of that batch fails with its error. Batches run one after another, in arrival order.
 */
export function createMicroBatcher<I, O>(
  run: (items: I[]) => Promise<BatchOutcome<O>[]>,
  opts: { max: number },
): (item: I) => Promise<O> {
  let waiting: { item: I; resolve: (o: O) => void; reject: (err: unknown) => void }[] = [];
  let running = false;
  async function drain(): Promise<void> {
    running = true;
    try {
      while (waiting.length) {
        const batch = waiting.slice(0, opts.max);
        waiting = waiting.slice(batch.length);
        let outcomes: BatchOutcome<O>[];
        try {
          outcomes = await run(batch.map((w) => w.item));
        } catch (err) {
          for (const w of batch) w.reject(err);
          continue;
        }
        batch.forEach((w, i) => {
          const o = outcomes[i];
          if (!o) w.reject(new Error(`micro-batcher: no outcome for item ${i} of ${batch.length}`));
          else if ('ok' in o) w.resolve(o.ok);
          else w.reject(o.err);
        });
      }
    } finally {
      running = false;
    }
  }
  return (item: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
