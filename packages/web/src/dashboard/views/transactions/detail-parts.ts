/** The read-only parts of a transaction's detail page: its facts, its signers and its timeline. */
import type { Detail } from '../../api.js';
import { fmtDate, h, TERMINAL } from '../../dom.js';

const STEP_LABEL: Record<string, string> = {
  created: 'Link sent',
  consent_accepted: 'Consented, recording',
  capture_accepted: 'Video in analysis',
  passed: 'Passed',
  failed: 'Failed',
  declined: 'Declined',
};

/** The sender's required assurance per signer, as the detail shows it. */
const REQUIRED_LABEL: Record<string, string> = {
  recorded: 'a recording (an upload is accepted)',
  live: 'a live recording',
  'live+webauthn': 'a live recording and a passkey or security key',
};

/** Document, hash, attestation, dates, what the transaction proves once every signer passed, reminders and the signing link. */
export function facts(t: Detail): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    h('dt', {}, 'Document'),
    h('dd', {}, t.document_name || '—'),
    h('dt', {}, 'SHA-256'),
    h('dd', {}, h('code', {}, t.document_sha256)),
    h('dt', {}, 'Attestation'),
    h('dd', {}, t.attestation_type),
    h('dt', {}, 'Created'),
    h('dd', {}, fmtDate(t.created_at)),
    ...(t.assurance
      ? [
          h('dt', {}, 'Assurance'),
          h('dd', { id: 'assurance' }, h('strong', {}, t.assurance), h('div', { class: 'hint' }, t.assurance_meaning ?? '')),
        ]
      : []),
    ...(t.expires_at
      ? [h('dt', {}, t.status === 'expired' ? 'Expired' : 'Links expire'), h('dd', {}, fmtDate(t.expires_at))]
      : []),
    ...(t.reminders.max > 0
      ? [
          h('dt', {}, 'Reminders'),
          h(
            'dd',
            {},
            `${t.reminders.sent} of ${t.reminders.max} sent` +
              (t.reminders.next_at && !TERMINAL.has(t.status) ? `; next ${fmtDate(t.reminders.next_at)}` : ''),
          ),
        ]
      : []),
    h('dt', {}, 'Signing link'),
    h(
      'dd',
      {},
      TERMINAL.has(t.status)
        ? h('span', { class: 'hint' }, 'No longer active')
        : h('code', {}, `${location.origin}/sign/${t.token}`),
    ),
  );
}

/** Every signer with their order, step, check, attempts and achieved assurance (with what it proves); the viewers below. */
export function signersCard(t: Detail): HTMLElement {
  const table = h(
    'table',
    { class: 'table stack', id: 'signers' },
    h('caption', { class: 'visually-hidden' }, 'Signers and their step'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'Signer'),
        h('th', { scope: 'col' }, 'Order'),
        h('th', { scope: 'col' }, 'Step'),
        h('th', { scope: 'col' }, 'Check'),
        h('th', { scope: 'col' }, 'Attempts left'),
        h('th', { scope: 'col' }, 'Assurance'),
      ),
    ),
    h(
      'tbody',
      {},
      ...t.signers.map((s) =>
        h(
          'tr',
          {},
          h(
            'th',
            { scope: 'row' },
            s.name || s.email,
            s.index === 0 ? h('span', { class: 'hint' }, ' (primary)') : null,
            s.role === 'approver' ? h('span', { class: 'hint' }, ' (approver)') : null,
            s.name ? h('br', {}) : null,
            s.name ? h('span', { class: 'hint' }, s.email) : null,
          ),
          h('td', { 'data-label': 'Order' }, String(s.order)),
          h('td', { 'data-label': 'Step' }, h('span', { class: `chip chip-${s.state}` }, STEP_LABEL[s.state] ?? s.state)),
          h(
            'td',
            { 'data-label': 'Check' },
            (s.verification_mode === 'biometric' ? 'Face match + liveness' : 'Liveness') + (s.webauthn ? ' + WebAuthn' : ''),
            // What the sender requires of the capture (issue 30): below it a recording is refused before analysis.
            h('div', { class: 'hint' }, `Requires ${REQUIRED_LABEL[s.required_assurance] ?? s.required_assurance}`),
          ),
          h('td', { 'data-label': 'Attempts left' }, String(s.attempts_left)),
          h(
            'td',
            { 'data-label': 'Assurance' },
            ...(s.assurance
              ? [h('strong', {}, s.assurance), h('div', { class: 'hint' }, s.assurance_meaning ?? '')]
              : [h('span', { class: 'hint' }, 'Not yet')]),
          ),
        ),
      ),
    ),
  );
  return h(
    'section',
    { class: 'card', 'aria-labelledby': 'h-signers' },
    h('h2', { id: 'h-signers' }, 'Signers'),
    table,
    t.viewers.length
      ? h(
          'p',
          { class: 'hint', id: 'viewers' },
          `Receive the result (no signing): ${t.viewers.map((v) => `${v.name} <${v.email}>`).join(', ')}`,
        )
      : null,
  );
}

/** The transaction's events, oldest first. */
export function timelineCard(t: Detail): HTMLElement {
  const timeline = h(
    'ol',
    { class: 'timeline', id: 'timeline' },
    ...t.events.map((e) =>
      h(
        'li',
        {},
        h('time', { datetime: e.at }, fmtDate(e.at)),
        ' ',
        h('strong', {}, e.type.replace(/_/g, ' ')),
        e.actor ? h('span', { class: 'hint' }, ` by ${e.actor}`) : null,
        e.detail ? h('div', { class: 'hint' }, e.detail) : null,
      ),
    ),
  );
  return h('section', { class: 'card', 'aria-labelledby': 'h-timeline' }, h('h2', { id: 'h-timeline' }, 'Timeline'), timeline);
}
