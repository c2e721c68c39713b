/**
 * Compile-time test (checked by `pnpm typecheck`, which runs `tsc -p packages/web/tsconfig.json`):
 * the dashboard's and the signing page's answers are the SDK's generated types, so reading a field
 * the API has compiles, and a wrong field or a wrong type does not.
 */
import type { components } from '@signet/sdk';
import { api, webhooksApi, type Detail, type Profile, type Summary } from '../src/dashboard/api.js';
import { api as signApi, type LiveStart, type Summary as SigningSummary } from '../src/sign/api.js';
import type { Bundle, LogKeys, SignedPdfReport, Verification } from '../src/verify/api.js';
import type { Ok } from '../src/shared/api-types.js';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const same = <A, B>(yes: Same<A, B>) => yes;

export async function dashboardReadsTheSdkTypes() {
  // The page's names are the SDK's schemas, not copies of them.
  same<Detail, components['schemas']['TransactionDetail']>(true);
  same<Summary, components['schemas']['TransactionSummary']>(true);
  same<Profile, components['schemas']['Profile']>(true);
  // @ts-expect-error the detail is not the summary
  same<Detail, Summary>(true);

  const detail = await api.transaction(42);
  const status: Summary['status'] = detail.status;
  const attempts: number = detail.signers[0]!.attempts_left;
  const when: string = detail.events[0]!.at;
  const next: string | null = detail.reminders.next_at;
  // @ts-expect-error the detail has no such field
  void detail.signer_phone;
  // @ts-expect-error a signer's attempts are a number
  const wrong: string = detail.signers[0]!.attempts_left;

  const settings = await api.updateSettings({ biometric_retention_days: 30 });
  const days: number = settings.biometric_retention_days;
  // @ts-expect-error the settings take a number of hours
  void api.updateSettings({ session_ttl_hours: '24' });

  const hooks = await webhooksApi.list();
  // @ts-expect-error an endpoint's event types are the API's enum
  hooks[0]!.event_types.push('transaction.exploded');

  // @ts-expect-error no such path in the API
  type Nothing = Ok<'/api/transactions/{id}/nothing', 'get'>;
  return { status, attempts, when, next, wrong, days, hooks } satisfies Record<string, unknown> as unknown as Nothing;
}

export async function signingPageReadsTheSdkTypes() {
  same<SigningSummary, components['schemas']['SigningSummary']>(true);
  same<LiveStart, components['schemas']['LiveStart']>(true);
  const client = signApi('A'.repeat(43));
  const summary = await client.summary();
  const outcome: string | null = summary.outcome;
  const redo: string[] = summary.redo;
  // @ts-expect-error the summary has no such field
  void summary.face_score;
  const ack = await client.chunk('nonce', 0, new Blob(), []);
  const done: boolean = ack.done;
  // @ts-expect-error a reveal may be absent
  const segment: number = ack.reveal.segment;
  return { outcome, redo, done, segment };
}

export function verifyPageReadsTheSdkTypes(v: Verification, b: Bundle, k: LogKeys) {
  same<Verification, components['schemas']['Verification']>(true);
  same<SignedPdfReport, components['schemas']['SignedPdfVerification']>(true);
  same<Bundle, components['schemas']['CertificateBundle']>(true);
  const log: 'live' | 'test' = v.log;
  const size: number = b.tree_size;
  const current: boolean | undefined = k.keys[0]?.current;
  // @ts-expect-error the verification has no such field
  void v.document_sha256;
  // @ts-expect-error a bundle's leaf index is a number
  const wrong: string = b.leaf_index;
  return [log, size, current, wrong];
}
