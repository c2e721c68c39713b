/**
 * Compile-time test of the SDK's response types (checked by `npx tsc -p test/tsconfig.json`): a
 * read of the transaction detail and of the signing summary compiles, a wrong field does not.
 */
import { createSignetClient, unwrap } from '../src/index.js';

export async function readsTypedAnswers() {
  const client = createSignetClient({ baseUrl: 'https://signet.example', apiKey: 'sk_test' });
  const detail = await unwrap(client.GET('/api/transactions/{id}', { params: { path: { id: '42' } } }));
  const status:
    'created' | 'consent_accepted' | 'capture_accepted' | 'ledger_issued' | 'failed' | 'cancelled' | 'declined' | 'expired' =
    detail.status;
  const attempts: number = detail.signers[0]!.attempts_left;
  const when: string = detail.events[0]!.at;
  // @ts-expect-error the detail has no such field
  void detail.signer_phone;
  // @ts-expect-error a signer's attempts are a number
  const wrong: string = detail.signers[0]!.attempts_left;

  const summary = await unwrap(client.GET('/api/sign/{token}/summary', { params: { path: { token: 'A'.repeat(43) } } }));
  const outcome: string | null = summary.outcome;
  const redo: string[] = summary.redo;
  // @ts-expect-error the summary has no such field
  void summary.face_score;

  // @ts-expect-error no such path
  void client.GET('/api/transactions/{id}/nothing', { params: { path: { id: '1' } } });
  return { status, attempts, when, wrong, outcome, redo };
}
