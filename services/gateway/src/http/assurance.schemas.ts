import { z } from 'zod';
import { ASSURANCE_LEVELS } from '@signet/kit';

/** The achieved assurance as the API shows it (verify, the transaction detail): @signet/kit assurance.ts. */
export const assuranceLevelSchema = z.enum(ASSURANCE_LEVELS).meta({
  id: 'AssuranceLevel',
  description:
    'What a signer’s ceremony proved, weakest first: test (a test-mode transaction completed by its sender, no ceremony), recorded (a recording that matched the prompts, possibly made before they were shown), live (produced in real time after each prompt was revealed), live+webauthn (live, and a WebAuthn authenticator confirmed the same session)',
});

export const verifiedSignerSchema = z
  .object({
    name: z.string(),
    role: z.string().meta({ description: 'signer or approver' }),
    assurance: assuranceLevelSchema,
    assurance_meaning: z.string().meta({ description: 'What this signer’s level proves, as sealed with the certificate' }),
  })
  .meta({ id: 'VerifiedSigner' });
