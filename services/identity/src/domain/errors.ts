import { DomainError, conflict, forbidden, invalid, notFound, unauthenticated } from '@signet/kit';

/** One answer for an unknown email and a wrong password, so neither can be probed. */
export const badCredentials = () => unauthenticated('invalid email or password');
export const badCode = (field = 'code') => invalid(`${field} is invalid or expired`, 'BAD_CODE');
export const accountExists = () =>
  new DomainError('already_exists', 'an account with this email already exists', 'ACCOUNT_EXISTS');
export const noPendingSignup = () => notFound('no pending sign-up for this email; register first');
export const onboardingTokenRequired = () => invalid('onboarding_token is required');
export const onboardingTokenInvalid = () => unauthenticated('onboarding_token is invalid or expired; verify the email again');
export const challengeRequired = () => invalid('challenge is required');
export const challengeInvalid = () => unauthenticated('challenge is invalid or expired; sign in again');
export const mfaCodeWrong = () => unauthenticated('the two-factor code is wrong or already used');
export const totpAlreadyOn = () => conflict('two-factor authentication is already enabled', 'TOTP_ENABLED');
export const totpNotSetUp = () => conflict('call 2fa/setup first', 'TOTP_NOT_SET_UP');
export const totpOff = () => conflict('two-factor authentication is not enabled', 'TOTP_DISABLED');
export const passwordOrCodeWrong = () => forbidden('password or code is wrong');
export const currentPasswordWrong = () => forbidden('current_password is wrong');
export const passwordChangedMeanwhile = () =>
  new DomainError('conflict', 'the password was changed meanwhile; sign in again', 'PASSWORD_CHANGED');
export const mailUnavailable = () =>
  new DomainError('unavailable', 'the mail could not be sent; try again shortly', 'MAIL_UNAVAILABLE');
export const noCredential = () => unauthenticated('no credential');
export const apiKeyInvalid = () => unauthenticated('invalid API key');
export const sessionInvalid = () => unauthenticated('invalid or expired session');
export const apiKeyNotFound = () => notFound('no such API key');
export const userNotFound = () => notFound('no such user');
export const webauthnResponseInvalid = (why = 'the WebAuthn response is not valid JSON of a credential') => invalid(why);
export const passkeyNotVerified = (why?: string) =>
  invalid(`the passkey could not be verified${why ? `: ${why}` : ''}; start again`, 'PASSKEY_NOT_VERIFIED');
export const passkeyLoginFailed = () => unauthenticated('the passkey sign-in failed; start again');
export const passkeyExists = () => conflict('this passkey is registered already', 'PASSKEY_EXISTS');
export const passkeyNotFound = () => notFound('no such passkey');
export const tooManyPasskeys = (max: number) =>
  conflict(`at most ${max} passkeys per user; remove one first`, 'TOO_MANY_PASSKEYS');
export const invitationInvalid = () => unauthenticated('the invitation is invalid, used or expired; ask for a new one');
export const notAllowed = (what: string) => forbidden(what);
export const memberNotFound = () => notFound('no such member');
export const invitationNotFound = () => notFound('no such invitation');
export const founderStays = () => conflict('the organisation’s founding owner cannot be removed or demoted', 'OWNER_STAYS');
