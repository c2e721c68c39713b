import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors.js';
import { parseSettings } from './admin.routes.js';

const detailOf = (body: unknown) => {
  try {
    parseSettings(body);
  } catch (err) {
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(400);
    return (err as HttpError).detail;
  }
  throw new Error('accepted');
};

describe('account settings body', () => {
  it.each([1, 8, 24, 168, 720])('accepts %i hours', (h) => {
    expect(parseSettings({ session_ttl_hours: h })).toEqual({ session_ttl_hours: h });
  });

  it('accepts a retention alone or with the session length', () => {
    expect(parseSettings({ biometric_retention_days: 7 })).toEqual({ biometric_retention_days: 7 });
    expect(parseSettings({ biometric_retention_days: 0, session_ttl_hours: 8 })).toEqual({
      biometric_retention_days: 0,
      session_ttl_hours: 8,
    });
  });

  it.each([
    [{}, /^session_ttl_hours or biometric_retention_days is required$/],
    [{ biometric_retention_days: -1 }, /^biometric_retention_days: must be at least 0$/],
    [{ biometric_retention_days: 7.5 }, /^biometric_retention_days: must be a whole number of days$/],
    [{ session_ttl_hours: null }, /^session_ttl_hours: must be a whole number of hours$/],
    [{ session_ttl_hours: '24' }, /^session_ttl_hours: must be a whole number of hours$/],
    [{ session_ttl_hours: 1.5 }, /^session_ttl_hours: must be a whole number of hours$/],
    [{ session_ttl_hours: 0 }, /^session_ttl_hours: must be at least 1$/],
    [{ session_ttl_hours: -5 }, /^session_ttl_hours: must be at least 1$/],
    [{ session_ttl_hours: 721 }, /^session_ttl_hours: must be at most 720/],
    [{ session_ttl_hours: 24, sesion_ttl_hours: 8 }, /^sesion_ttl_hours: unknown setting/],
    [{ two_factor_enabled: false }, /^two_factor_enabled: unknown setting/],
    [[24], /request body must be a JSON object/],
    [undefined, /request body must be a JSON object/],
  ])('refuses %j naming the cause', (body, detail) => {
    expect(detailOf(body)).toMatch(detail);
  });
});
