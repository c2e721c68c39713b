/**
 * The MongoDB-compatible store of the local stack and the test harness: FerretDB (patched, see
 * scripts/ferretdb/README.md) on a PostgreSQL cluster from Debian's packages, initialised under the
 * data folder on its own port with its own role, no system service. SIGNET_STORE=sqlite selects
 * FerretDB's SQLite backend instead (the smallest machines; measured 6x slower under concurrency,
 * docs/decisions.md "Local store on PostgreSQL").
 */
import { spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export type StoreBackend = 'postgresql' | 'sqlite';

/** The backend SIGNET_STORE names; PostgreSQL unless told otherwise. */
export function storeBackend(env: NodeJS.ProcessEnv = process.env): StoreBackend {
  const v = env.SIGNET_STORE ?? 'postgresql';
  if (v !== 'postgresql' && v !== 'sqlite') throw new Error(`SIGNET_STORE must be postgresql or sqlite, not ${v}`);
  return v;
}

/** The newest PostgreSQL server binaries of Debian's packages (/usr/lib/postgresql/<major>/bin). */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const majors = readdirSync(root)
    .filter((d) => /^\d+$/.test(d) && existsSync(join(root, d, 'bin/postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] ? join(root, majors[0], 'bin') : null;
}

/** PostgreSQL refuses to run as root: as root, the cluster belongs to Debian's `postgres` user. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const u = id('-u');
  const g = id('-g');
  if (u.status !== 0 || g.status !== 0) throw new Error('running as root and there is no postgres user: run scripts/install.sh');
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

/** Whether `user` can reach and write `dir` (every folder above it must let it through). */
function reachable(dir: string, user: { uid: number; gid: number } | null): boolean {
  if (!user) return true;
  return spawnSync('test', ['-w', dir, '-a', '-x', dir], { uid: user.uid, gid: user.gid }).status === 0;
}

export type Spawner = (
  name: string,
  cmd: string,
  args: string[],
  opts?: Pick<SpawnOptions, 'uid' | 'gid'> & { env?: NodeJS.ProcessEnv },
) => ChildProcess;

/**
 * FerretDB's Go garbage collector at GOGC=400 (Go's default is 100) unless GOGC is set: FerretDB allocates
 * for every document it decodes, and at the default its collector was a fifth of its CPU under the
 * transactions benchmark; at 400 its CPU per creation fell about 13 % relative to the untouched transaction
 * service, and its peak RSS rose from 45 to 66-76 MB (docs/decisions.md, session 13).
 */
const ferretEnv = (): NodeJS.ProcessEnv => ({ GOGC: process.env.GOGC ?? '400' });

export type StartedStore = {
  backend: StoreBackend;
  url: string;
  procs: ChildProcess[];
  note?: string;
  /** PostgreSQL under FerretDB (its database `ferretdb`), for tests that must reach past FerretDB. */
  postgresUrl?: string;
};

/**
 * Starts PostgreSQL (initialising the cluster on first use) and FerretDB on it, or FerretDB on
 * SQLite; returns FerretDB's process last. `durable: false` turns off fsync (test data is thrown away).
 */
export async function startStore(o: {
  backend: StoreBackend;
  dataDir: string;
  ferretdb: string;
  mongoPort: number;
  postgresPort: number;
  durable: boolean;
  run: Spawner;
  waitFor: (name: string, probe: () => Promise<boolean>, proc: ChildProcess) => Promise<void>;
}): Promise<StartedStore> {
  const common = [
    `--listen-addr=127.0.0.1:${o.mongoPort}`,
    // FERRETDB_DEBUG_ADDR=127.0.0.1:<port>: FerretDB's pprof endpoint, to profile the store under a benchmark.
    `--debug-addr=${process.env.FERRETDB_DEBUG_ADDR ?? '-'}`,
    '--telemetry=disable',
    '--log-level=warn',
  ];
  const dir = (d: string) => {
    const p = join(o.dataDir, d);
    mkdirSync(p, { recursive: true });
    return p;
  };
  if (o.backend === 'sqlite') {
    const ferret = o.run(
      'ferretdb',
      o.ferretdb,
      ['--handler=sqlite', `--sqlite-url=file:${dir('ferretdb')}/`, `--state-dir=${dir('ferretdb-state')}`, ...common],
      { env: ferretEnv() },
    );
    return { backend: 'sqlite', url: `mongodb://127.0.0.1:${o.mongoPort}/`, procs: [ferret] };
  }

  const bin = postgresBin();
  if (!bin)
    throw new Error(
      'PostgreSQL server binaries not found under /usr/lib/postgresql: run scripts/install.sh (or SIGNET_STORE=sqlite)',
    );
  const user = serverUser();
  const pgData = join(o.dataDir, 'postgres');
  const fresh = !existsSync(join(pgData, 'PG_VERSION'));
  if (fresh) {
    mkdirSync(pgData, { recursive: true, mode: 0o700 });
    if (user) {
      // The data folder (ours) must let the server's user through to its cluster.
      if ((statSync(o.dataDir).mode & 0o011) !== 0o011) chmodSync(o.dataDir, statSync(o.dataDir).mode | 0o011);
      chownSync(pgData, user.uid, user.gid);
    }
  }
  if (!reachable(pgData, user)) {
    throw new Error(
      `the postgres user cannot reach ${pgData} (a folder above it is closed to others): move the data folder or use SIGNET_STORE=sqlite`,
    );
  }
  const asServer = user ? { uid: user.uid, gid: user.gid } : {};
  if (fresh) {
    const init = spawnSync(
      join(bin, 'initdb'),
      ['-D', pgData, '-U', 'signet', '--auth=trust', '-E', 'UTF8', '--no-locale', ...(o.durable ? [] : ['--no-sync'])],
      { ...asServer, encoding: 'utf8' },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  }
  const settings = o.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const pg = o.run(
    'postgres',
    join(bin, 'postgres'),
    ['-D', pgData, '-h', '127.0.0.1', '-p', String(o.postgresPort), '-k', pgData, '-c', 'max_connections=200', ...settings],
    asServer,
  );
  await o.waitFor(
    'postgres',
    async () => spawnSync(join(bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(o.postgresPort)]).status === 0,
    pg,
  );
  const pgUrl = (db: string) => `postgres://signet@127.0.0.1:${o.postgresPort}/${db}`;
  if (fresh) {
    const created = spawnSync(
      join(bin, 'createdb'),
      ['-h', '127.0.0.1', '-p', String(o.postgresPort), '-U', 'signet', 'ferretdb'],
      {
        encoding: 'utf8',
      },
    );
    if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
  }
  const ferret = o.run(
    'ferretdb',
    o.ferretdb,
    ['--handler=postgresql', `--postgresql-url=${pgUrl('ferretdb')}`, `--state-dir=${dir('ferretdb-state')}`, ...common],
    { env: ferretEnv() },
  );
  const note =
    fresh && existsSync(join(o.dataDir, 'ferretdb'))
      ? `the local store now runs on PostgreSQL; the earlier SQLite data in ${join(o.dataDir, 'ferretdb')} is kept (SIGNET_STORE=sqlite uses it)`
      : undefined;
  return {
    backend: 'postgresql',
    url: `mongodb://127.0.0.1:${o.mongoPort}/`,
    procs: [pg, ferret],
    note,
    postgresUrl: pgUrl('ferretdb'),
  };
}
