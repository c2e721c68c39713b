/** The signing page at /sign/<token>: loads the signer's summary and opens the step it is at. */
import '../shared/a11y.css';
import './sign.css';
import type { Summary } from './api.js';
import { toCamera } from './camera.js';
import { emit } from './embed.js';
import { showFieldsOrConsent } from './fields.js';
import { devtoolsHeuristic } from './forensic.js';
import { $, client, fatal, finish, gone, log, page } from './page.js';
import { verifying } from './result.js';

async function start() {
  try {
    page.summary = await client.summary();
  } catch (err) {
    if (gone(err)) return;
    fatal((err as Error).message, () => void start());
    return;
  }
  $('doc-chip').textContent = page.summary.document_name;
  emit('ready', { step: page.summary.step });
  route(page.summary);
}

function route(s: Summary) {
  if (s.step === 'consent') return void showFieldsOrConsent(s);
  if (s.step === 'verifying') return void verifying();
  if (s.step === 'passed') return finish('Your identity has been verified. You can close this page.');
  if (s.step === 'failed')
    return finish('The verification did not succeed and no attempts are left. The sender has been informed.');
  return void toCamera();
}

document.addEventListener('visibilitychange', () => log.add('visibility_change', { state: document.visibilityState }));
window.addEventListener('resize', () => log.add('devtools_heuristic', devtoolsHeuristic()));
void start();
