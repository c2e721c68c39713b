/**
 * "What a certificate proves and what it does not" (issue 30), a section of
 * docs/biometrics-evaluation.md that eval/evaluate.ts prints: the residual risk stated plainly, in
 * the words every other place uses for the levels (@signet/kit ASSURANCE_MEANINGS).
 */
import { ASSURANCE_MEANINGS } from '@signet/kit';

export function certificateScope(): string {
  return [
    '## What a certificate proves and what it does not',
    '',
    'A Signet certificate proves that a document with this hash was signed in a ceremony whose capture passed the checks on this page, at the assurance it states, and that the record has not changed since it was sealed in the log. It does **not** prove that a living person stood in front of the camera. Each level, in the sentence the certificate, the verify API and page carry:',
    '',
    `- **recorded** — ${ASSURANCE_MEANINGS.recorded} The whole challenge (actions, words, colours) could be known before anything was filmed, so an offline renderer can answer it: the corpus renderer itself makes a passing recorded capture of a person from one frontal photo in seconds. What recorded adds over a photo is that the face matches the reference, stays one person, and that the file was made for this challenge (a recording made for another challenge fails).`,
    `- **live** — ${ASSURANCE_MEANINGS.live} Each prompt and colour was revealed only once the media before it had arrived, so the answer was produced within about a second of each reveal. That rules out anything made in advance; it does not rule out a machine that answers in real time. Real-time face reenactment from one photo is commodity software, and a virtual camera hands its frames to the browser as if they came from a sensor: such a puppet, if it also renders the revealed colours shaded by the face's geometry, passes every check here. The light by its physics raises its cost — a puppet that tints the face uniformly in the revealed colour failed it on every evaluation face, and so did a mild screen recapture of that puppet (12 of 12 new draws each, highest shares 24 and 26 % against 40; see "Light by its physics on captures as long as the ceremony issues them") — but does not close it: a puppet that shades the colour by the face's geometry passes it by construction.`,
    `- **live+webauthn** — ${ASSURANCE_MEANINGS['live+webauthn']} The authenticator binds the session to a device the signer controls (or once enrolled); it says nothing about whose face was filmed, and it does not detect a virtual camera on that same device.`,
    '',
    'What is not checked at any level: whether the camera is a physical sensor (the camera label, track settings and frame timing are kept in the forensic record as information, not judged); a live relay of the real signer re-filmed off a screen (the relay recapture below passes: what is on the screen is a correct capture); synthetic speech (any voice saying the right words passes); and anything about real phones, real faces and real attackers — every figure on this page comes from rendered captures.',
    '',
  ].join('\n');
}
