import type { z } from 'zod';
import { bodyObject, parseWith } from './route.js';

/** Parses a JSON body with a zod object schema through the one zod → 400 (route.ts): the detail names the first offending field. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  return parseWith(schema, bodyObject(body), 'body');
}
