/** The signing page at /sign/<token>: loads the signer's summary and opens the step it is at. */
import '../shared/a11y.css';
import './sign.css';
import type { Summary } from './api.js';
import { toCamera } from './camera.js';
import { applyBrand } from './brand.js';
import { emit } from './embed.js';
import { showFieldsOrConsent } from './fields.js';
import { devtoolsHeuristic } from './forensic.js';
import { chosenLocale, pickLocale, t, translatePage, useLocale } from './i18n/index.js';
import { $, client, errorText, fatal, finish, gone, log, page } from './page.js';
import { verifying } from './result.js';

async function start() {
  await useLocale(pickLocale(chosenLocale(), navigator.languages ?? [navigator.language]));
  translatePage();
  applyBrand();
  try {
    page.summary = await client.summary();
  } catch (err) {
    if (gone(err)) return;
    fatal(errorText(err), () => void start());
    return;
  }
  $('doc-chip').textContent = page.summary.document_name;
  emit('ready', { step: page.summary.step });
  route(page.summary);
}

function route(s: Summary) {
  if (s.step === 'consent') return void showFieldsOrConsent(s);
  if (s.step === 'verifying') return void verifying();
  if (s.step === 'passed') return finish(t('done.passed'));
  if (s.step === 'failed') return finish(t('done.failed'));
  return void toCamera();
}

document.addEventListener('visibilitychange', () => log.add('visibility_change', { state: document.visibilityState }));
window.addEventListener('resize', () => log.add('devtools_heuristic', devtoolsHeuristic()));
void start();
