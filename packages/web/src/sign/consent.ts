/** The consent step (the document, the attestation, the consent text) and the decline with its confirmation. */
import { ApiError, type Summary } from './api.js';
import { toCamera } from './camera.js';
import { emit } from './embed.js';
import { t } from './i18n/index.js';
import { $, client, errorText, finish, gone, page, show, token } from './page.js';

export function showConsent(s: Summary) {
  $('c-doc').textContent = s.document_name;
  $('c-hash').textContent = s.document_sha256_prefix;
  $<HTMLAnchorElement>('c-doc-link').href = `/api/sign/${encodeURIComponent(token)}/document`;
  $('c-doc-link-wrap').hidden = false;
  $('c-issuer').textContent = s.issuer_name;
  $('c-signer').textContent = s.signer_name;
  $('c-attest').textContent = s.attestation_text;
  $('c-text').textContent = s.consent_text;
  const agree = $<HTMLInputElement>('c-agree');
  const submit = $<HTMLButtonElement>('c-submit');
  agree.onchange = () => (submit.disabled = !agree.checked);
  submit.onclick = async () => {
    submit.disabled = true;
    try {
      page.summary = await client.consent(s.consent_text_version);
    } catch (err) {
      if (gone(err)) return;
      // Consent already recorded (another tab): carry on.
      if (!(err instanceof ApiError && err.status === 409)) {
        submit.disabled = false;
        $('status').textContent = errorText(err);
        return;
      }
    }
    emit('consented');
    await toCamera();
  };
  $('c-decline').onclick = () => confirmDecline(() => showConsent(s));
  show('consent');
}

/** The confirmation step of a decline: a reason for the sender, then the decline, which ends the request. */
export function confirmDecline(back: () => void) {
  const confirm = $<HTMLButtonElement>('d-confirm');
  const reason = $<HTMLTextAreaElement>('d-reason');
  $('d-back').onclick = () => back();
  confirm.disabled = false;
  confirm.onclick = async () => {
    confirm.disabled = true;
    try {
      await client.decline(reason.value.trim());
    } catch (err) {
      if (gone(err)) return;
      confirm.disabled = false;
      $('status').textContent = errorText(err);
      return;
    }
    emit('declined');
    finish(t('decline.done'));
  };
  show('decline');
}
