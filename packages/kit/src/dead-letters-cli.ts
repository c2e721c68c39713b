/**
 * The dead-letters command: lists the events a consumer gave up on and puts them back.
 *
 *   NATS_URL=nats://… node node_modules/@signet/kit/dist/dead-letters-cli.js list [--consumer <durable>]
 *   NATS_URL=nats://… node node_modules/@signet/kit/dist/dead-letters-cli.js replay <seq>… | --consumer <durable> | --all
 *
 * In a service's pod (NATS_URL is in its environment; node is /nodejs/bin/node in the distroless images,
 * /usr/local/bin/node in the ceremony and biometrics ones):
 * `kubectl exec deploy/<release>-ledger -- /nodejs/bin/node node_modules/@signet/kit/dist/dead-letters-cli.js list`.
 * From the repository: `node --conditions=@signet/source --import tsx packages/kit/src/dead-letters-cli.ts list`.
 * Prints one JSON object per line (no payloads: they may hold personal data); replay prints each entry
 * it put back. Exit status 2 on a usage error, 1 on a failure.
 */
import { pathToFileURL } from 'node:url';
import { connect } from 'nats';
import { z } from 'zod';
import { env, loadConfig } from './config.js';
import { STREAM, type Bus } from './nats.js';
import { listDeadLetters, replayDeadLetter } from './dead-letters.js';

const USAGE = 'usage: dead-letters list [--consumer <durable>] | replay <seq>... | replay --consumer <durable> | replay --all';

export class UsageError extends Error {}

/** Runs one command on an open bus; writes its lines through `out`. */
export async function runDeadLetters(bus: Bus, argv: readonly string[], out: (line: string) => void): Promise<void> {
  const [command, ...rest] = argv;
  const flag = (name: string) => {
    const i = rest.indexOf(name);
    if (i < 0) return undefined;
    const v = rest[i + 1];
    if (!v || v.startsWith('--')) throw new UsageError(`${name} needs a value`);
    return v;
  };
  if (command === 'list') {
    for (const d of await listDeadLetters(bus, { consumer: flag('--consumer') })) out(JSON.stringify(d));
    return;
  }
  if (command === 'replay') {
    const consumer = flag('--consumer');
    let seqs: number[];
    if (consumer || rest.includes('--all')) {
      seqs = (await listDeadLetters(bus, { consumer })).filter((d) => !d.missing).map((d) => d.seq);
    } else {
      seqs = rest.map(Number);
      if (seqs.length === 0 || seqs.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
        throw new UsageError('replay takes dead-letter sequence numbers (from list), --consumer <durable> or --all');
      }
    }
    for (const seq of seqs) out(JSON.stringify({ replayed: await replayDeadLetter(bus, seq, STREAM) }));
    return;
  }
  throw new UsageError(USAGE);
}

async function main(): Promise<number> {
  const { NATS_URL } = loadConfig(z.object({ NATS_URL: env.natsUrl }));
  const nc = await connect({ servers: NATS_URL, name: 'dead-letters-cli' });
  try {
    const bus: Bus = { nc, js: nc.jetstream(), jsm: await nc.jetstreamManager() };
    await runDeadLetters(bus, process.argv.slice(2), (line) => process.stdout.write(`${line}\n`));
    return 0;
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    return err instanceof UsageError ? 2 : 1;
  } finally {
    await nc.drain();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
