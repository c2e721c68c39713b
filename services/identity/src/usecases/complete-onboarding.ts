import { accountExists, onboardingTokenInvalid, onboardingTokenRequired } from '../domain/errors.js';
import { isLive } from '../domain/codes.js';
import { sha256 } from '../domain/secrets.js';
import { checkText } from '../domain/validate.js';
import { userCreatedEvent } from '../events/user-created.publisher.js';
import type { SignupRepository } from '../store/signup.repository.js';
import type { UserRepository } from '../store/user.repository.js';
import type { IdentityDeps } from './deps.js';
import { issueSession, type IssuedSession } from './issue-session.js';

/**
 * Turns a verified sign-up intent into the account: the user document is inserted together with
 * its `user.created` event (outbox), the intent is removed, and the new user gets a session. Of two
 * racing onboardings with one token, the unique email index lets one create the account.
 */
export async function completeOnboarding(
  deps: Pick<IdentityDeps, 'sessions' | 'defaultSessionTtlHours' | 'metrics' | 'onUserCreated' | 'now'> & {
    users: Pick<UserRepository, 'create'>;
    signups: Pick<SignupRepository, 'byOnboardingToken' | 'remove'>;
  },
  input: { onboardingToken: string; orgName: string },
): Promise<IssuedSession> {
  const orgName = checkText(input.orgName, 'org_name');
  if (!input.onboardingToken) throw onboardingTokenRequired();
  const intent = await deps.signups.byOnboardingToken(sha256(input.onboardingToken));
  if (!intent || !intent.verified_at || !isLive(intent.onboarding_expires_at, deps.now())) throw onboardingTokenInvalid();
  const email = intent._id;
  const user = await deps.users.create(
    {
      email,
      name: intent.name,
      org_name: orgName,
      password_hash: intent.password_hash,
      session_ttl_hours: deps.defaultSessionTtlHours,
      created_at: new Date(deps.now()),
    },
    (userId) => [userCreatedEvent(userId, email, orgName)],
  );
  if (!user) throw accountExists();
  await deps.signups.remove(email);
  deps.onUserCreated();
  deps.metrics.signups.inc({ step: 'onboarded' });
  return issueSession(deps, user);
}
