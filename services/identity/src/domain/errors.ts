import { DomainError, conflict, invalid, notFound, unauthenticated } from '@signet/kit';

/** One answer for an unknown email and a wrong password, so neither can be probed. */
export const badCredentials = () => unauthenticated('invalid email or password');
export const badCode = (field = 'code') => invalid(`${field} is invalid or expired`, 'BAD_CODE');
export const accountExists = () =>
  new DomainError('already_exists', 'an account with this email already exists', 'ACCOUNT_EXISTS');
export const noPendingSignup = () => notFound('no pending sign-up for this email; register first');
export const onboardingTokenInvalid = () => unauthenticated('onboarding_token is invalid or expired; verify the email again');
export const challengeInvalid = () => unauthenticated('challenge is invalid or expired; sign in again');
export const totpAlreadyOn = () => conflict('two-factor authentication is already enabled', 'TOTP_ENABLED');
export const totpNotSetUp = () => conflict('call 2fa/setup first', 'TOTP_NOT_SET_UP');
export const totpOff = () => conflict('two-factor authentication is not enabled', 'TOTP_DISABLED');
export const apiKeyNotFound = () => notFound('no such API key');
export const userNotFound = () => notFound('no such user');
