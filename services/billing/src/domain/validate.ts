import { invalid } from '@signet/kit';

const ID = /^[A-Za-z0-9_:.-]{1,128}$/;

/** User and consumption ids: 1-128 characters of letters, digits, _ : . - (else INVALID_ARGUMENT). */
export function checkId(name: string, v: string): string {
  if (!ID.test(v)) throw invalid(`${name} must be 1-128 characters of letters, digits, _ : . -`);
  return v;
}
