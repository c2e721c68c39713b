/**
 * The keys a relying party verifies with, listed on the page as GET /api/ledger/keys serves them: each
 * log's keys (checkpoints and seals) and its witnesses' (cosignatures), as C2SP note verifier keys.
 */
import { ledgerKeys, type LedgerKeys } from './api.js';
import { $ } from './dom.js';

type Key = LedgerKeys['keys'][number];

function label(k: Key, quorum: number): string {
  const log = k.log === 'test' ? 'TEST log' : 'log';
  if (k.role === 'witness') return `Witness of the ${log} (${quorum} must cosign)`;
  return k.current ? `${k.log === 'test' ? 'TEST log' : 'Log'} key` : `Retired ${log} key (until ${k.not_after ?? '?'})`;
}

export async function listKeys(): Promise<void> {
  const list = $('keys');
  const keys = await ledgerKeys().catch(() => 0);
  if (typeof keys === 'number') {
    list.textContent = `The keys could not be fetched${keys ? ` (${keys})` : ''}.`;
    return;
  }
  const quorum = new Map(keys.logs.map((l) => [l.log, l.witness_quorum]));
  for (const k of keys.keys) {
    const li = document.createElement('li');
    li.className = `key ${k.role}`;
    li.append(`${label(k, quorum.get(k.log) ?? 0)}: `);
    const code = document.createElement('code');
    code.textContent = k.verifier_key;
    li.append(code);
    list.append(li);
  }
}
