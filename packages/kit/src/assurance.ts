/**
 * The assurance a signer's ceremony achieved, and the one sentence that says what it proves (issue 30
 * item 2). Every place that shows a level — the verify API and page, the transaction detail, webhook
 * payloads, the certificate, its PDF and the audit trail — takes the wording from here, so a relying
 * party reads the same claim everywhere.
 *
 * Levels, weakest first: `test` (a test-mode transaction completed by its sender: no ceremony),
 * `recorded`, `live`, `live+webauthn`.
 */
export const ASSURANCE_LEVELS = ['test', 'recorded', 'live', 'live+webauthn'] as const;
export type AssuranceLevel = (typeof ASSURANCE_LEVELS)[number];

const VIRTUAL_CAMERA = 'it does not rule out real-time synthetic video injected through a virtual camera';

/** What each level proves, in one plain sentence (ASCII: the PDFs' fonts are subset per document). */
export const ASSURANCE_MEANINGS: Readonly<Record<AssuranceLevel, string>> = {
  test: 'No ceremony took place: a test-mode transaction completed by its sender, which proves nothing about the signer.',
  recorded: 'A recording that matched the prompts, possibly produced before they were shown.',
  live: `A recording produced in real time after each prompt was revealed; ${VIRTUAL_CAMERA}.`,
  'live+webauthn': `A recording produced in real time after each prompt was revealed, and a WebAuthn authenticator on the signer's device confirmed the same session; ${VIRTUAL_CAMERA}.`,
};

export const isAssuranceLevel = (v: unknown): v is AssuranceLevel =>
  typeof v === 'string' && (ASSURANCE_LEVELS as readonly string[]).includes(v);

/**
 * The level a passing capture achieved from what was recorded of it: the timing the ceremony assessed
 * (`live` or `recorded`; `test` for a test-mode completion; already `live+webauthn` on records that
 * hold the level) and whether a WebAuthn step was verified with it. WebAuthn raises only `live`: a
 * confirmed device does not make a recording made beforehand real-time. Empty or unknown: `recorded`,
 * what every capture before the live protocol was.
 */
export function achievedAssurance(timing: string | null | undefined, webauthn: boolean | null | undefined): AssuranceLevel {
  const level = isAssuranceLevel(timing) ? timing : 'recorded';
  return level === 'live' && webauthn ? 'live+webauthn' : level;
}

/**
 * What a set of signers proves together: the weakest of their levels, since a relying party relies on
 * every signature a certificate carries. None: undefined.
 */
export function lowestAssurance(levels: readonly AssuranceLevel[]): AssuranceLevel | undefined {
  let low: AssuranceLevel | undefined;
  for (const l of levels) if (low === undefined || ASSURANCE_LEVELS.indexOf(l) < ASSURANCE_LEVELS.indexOf(low)) low = l;
  return low;
}

export const assuranceMeaning = (level: AssuranceLevel): string => ASSURANCE_MEANINGS[level];

/** Whether `achieved` meets `required` (both levels; `test` meets nothing but `test`). */
export const meetsAssurance = (achieved: AssuranceLevel, required: AssuranceLevel): boolean =>
  ASSURANCE_LEVELS.indexOf(achieved) >= ASSURANCE_LEVELS.indexOf(required);

/**
 * A certified signer's level and sentence as a certificate (cert.json) states them: the sealed
 * sentence when it has one (since issue 30), else today's wording; on certificates sealed before the
 * level named WebAuthn, `live` with `webauthn: true` (or the `webauthn` check) is live+webauthn.
 * Takes the certificate's JSON as read, so anything malformed reads as `recorded`.
 */
export function certifiedAssurance(s: {
  assurance?: unknown;
  assurance_meaning?: unknown;
  webauthn?: unknown;
  checks?: unknown;
}): { assurance: AssuranceLevel; assurance_meaning: string } {
  const webauthn = s.webauthn === true || (Array.isArray(s.checks) && s.checks.includes('webauthn'));
  const assurance = achievedAssurance(typeof s.assurance === 'string' ? s.assurance : '', webauthn);
  const sealed = typeof s.assurance_meaning === 'string' ? s.assurance_meaning : '';
  return { assurance, assurance_meaning: sealed || assuranceMeaning(assurance) };
}

type CertifiedSignerJson = Parameters<typeof certifiedAssurance>[0] & { name?: unknown; role?: unknown };

/**
 * What a certificate's signers (its `signers` as read) proved, each and together: the certificate's
 * level is its weakest signer's, with that signer's sentence. No signers: `recorded`.
 */
export function certificateAssuranceOf(signers: readonly CertifiedSignerJson[]): {
  assurance: AssuranceLevel;
  assurance_meaning: string;
  signers: { name: string; role: string; assurance: AssuranceLevel; assurance_meaning: string }[];
} {
  const each = signers.map((s) => ({
    name: typeof s.name === 'string' ? s.name : '',
    role: typeof s.role === 'string' && s.role ? s.role : 'signer',
    ...certifiedAssurance(s),
  }));
  const assurance = lowestAssurance(each.map((s) => s.assurance)) ?? 'recorded';
  const weakest = each.find((s) => s.assurance === assurance);
  return { assurance, assurance_meaning: weakest?.assurance_meaning ?? assuranceMeaning(assurance), signers: each };
}
