import type { Client } from 'openapi-fetch';
import { unwrap, type Schemas } from './client.js';
import type { paths } from './schema.js';

export type BulkJob = Schemas['BulkJob'];
/** One row of a JSON bulk upload: the signer of each role of the template (with a base64 photo for a face-match role) and prefilled values. */
export type BulkRow = Schemas['BulkUpload']['rows'][number];

export type BulkSendOptions = {
  /** A retry with the same key and rows answers the first job instead of starting another. */
  idempotencyKey?: string;
};

/**
 * Bulk send (issue 33): a template to up to 1,000 signers, one transaction per row, in the
 * background. `rows` are JSON rows, or the text of a CSV (<role>_name, <role>_email, <role>_photo,
 * value_<field id> columns). The answer is the job with each row pending or failed with its reason;
 * follow it with `bulk.get` or `bulk.wait`.
 */
async function send(client: Client<paths>, templateId: string, rows: BulkRow[] | { csv: string }, opts: BulkSendOptions = {}) {
  const headers = opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : undefined;
  const csv = 'csv' in rows ? rows.csv : undefined;
  return unwrap(
    client.POST('/api/templates/{id}/bulk', {
      params: { path: { id: templateId }, ...(headers ? { header: headers } : {}) },
      ...(csv !== undefined
        ? { body: csv as never, bodySerializer: (b: unknown) => b as string, headers: { 'content-type': 'text/csv' } }
        : { body: { rows: rows as BulkRow[] } as never }),
    }),
  ) as Promise<BulkJob>;
}

const get = (client: Client<paths>, id: string) =>
  unwrap(client.GET('/api/bulk/{id}', { params: { path: { id } } })) as Promise<BulkJob>;

/** A page of the caller's bulk jobs, newest first (without their rows). */
const list = (client: Client<paths>, query: { limit?: number; cursor?: string } = {}) =>
  unwrap(client.GET('/api/bulk', { params: { query } })) as Promise<BulkJob[]>;

/** Polls the job until no row is pending (every `intervalMs`, default 2 s; at most `timeoutMs`, default 30 min). */
async function wait(client: Client<paths>, id: string, opts: { intervalMs?: number; timeoutMs?: number } = {}): Promise<BulkJob> {
  const end = Date.now() + (opts.timeoutMs ?? 30 * 60_000);
  for (;;) {
    const job = await get(client, id);
    if (job.state === 'completed') return job;
    if (Date.now() > end) throw new Error(`bulk job ${id} still running after ${opts.timeoutMs ?? 30 * 60_000} ms`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 2000));
  }
}

export const bulk = { send, get, list, wait };
