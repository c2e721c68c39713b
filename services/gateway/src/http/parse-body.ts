import type { z } from 'zod';
import { badRequest } from './errors.js';

/** Parses a JSON body with a zod object schema; the 400 detail names the first offending field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object (Content-Type: application/json)');
  }
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = issue.path.join('.') || 'body';
  const value = issue.path.reduce<unknown>(
    (o, k) => (o && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[k] : undefined),
    body,
  );
  if (value === undefined) throw badRequest(`${field} is required`);
  throw badRequest(`${field}: ${issue.message}`);
}
