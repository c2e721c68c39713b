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

  it('accepts the expiry and reminder defaults alone or together, reminder_max 0 for none', () => {
    expect(parseSettings({ expiry_days: 3 })).toEqual({ expiry_days: 3 });
    const all = { expiry_days: 14, reminder_first_after_hours: 24, reminder_every_hours: 48, reminder_max: 0 };
    expect(parseSettings(all)).toEqual(all);
  });

  it.each([
    [
      {},
      /^session_ttl_hours or another setting is required; the settings are session_ttl_hours, biometric_retention_days, expiry_days, reminder_first_after_hours, reminder_every_hours, reminder_max$/,
    ],
    [{ expiry_days: 0 }, /^expiry_days: must be at least 1$/],
    [{ expiry_days: 2.5 }, /^expiry_days: must be a whole number of days$/],
    [{ expiry_days: '7' }, /^expiry_days: must be a whole number of days$/],
    [{ reminder_every_hours: 0 }, /^reminder_every_hours: must be at least 1$/],
    [{ reminder_first_after_hours: -1 }, /^reminder_first_after_hours: must be at least 1$/],
    [{ reminder_max: 21 }, /^reminder_max: must be at most 20$/],
    [{ reminder_max: -1 }, /^reminder_max: must be at least 0$/],
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
