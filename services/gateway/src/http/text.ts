import type { ErrorRequestHandler } from 'express';
import { z } from 'zod';
import type { Metrics } from '@signet/kit';
import { HttpError } from './errors.js';

/**
 * The one rule for text that a client sends (docs/decisions.md "Text input"): control characters
 * other than tab and newline (C0, DEL, C1) are refused, and so is text that is not well-formed
 * Unicode (a lone surrogate). PostgreSQL under FerretDB refuses U+0000 outright (a 500 before this
 * rule); the others have no place in a name, a reason or a description and make logs, CSV exports
 * and certificates lie about what was sent.
 */
// eslint-disable-next-line no-control-regex -- control characters are what this rule finds
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/** C0 and DEL only: for text whose bytes the caller decodes itself (a multipart file name). */
// eslint-disable-next-line no-control-regex -- control characters are what this rule finds
export const C0_CONTROL = /[\u0000-\u001F\u007F]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string is refused, or undefined when it is acceptable text. */
export function textProblem(s: string): string | undefined {
  const m = CONTROL.exec(s);
  if (m) return `must not contain control characters (U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  if (LONE_SURROGATE.test(s)) return 'must be well-formed Unicode text';
  return undefined;
}

/**
 * Walks a parsed request part (JSON body, query, path parameters, headers) and returns the path and
 * problem of its first unacceptable string — keys included — or undefined. Depth is bounded by the
 * body parsers' size limits; a visited set guards against shared references.
 */
export function findTextProblem(value: unknown, path: string[] = []): { field: string; problem: string } | undefined {
  const seen = new Set<object>();
  const walk = (v: unknown, at: string[]): { field: string; problem: string } | undefined => {
    if (typeof v === 'string') {
      const problem = textProblem(v);
      return problem ? { field: at.join('.'), problem } : undefined;
    }
    if (!v || typeof v !== 'object' || Buffer.isBuffer(v) || seen.has(v)) return undefined;
    seen.add(v);
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      const keyProblem = textProblem(k);
      if (keyProblem) return { field: [...at, printable(k)].join('.'), problem: `key ${keyProblem}` };
      const found = walk(x, [...at, k]);
      if (found) return found;
    }
    return undefined;
  };
  return walk(value, path);
}

// eslint-disable-next-line no-control-regex -- control characters are what is escaped
const ESCAPED = /[\u0000-\u001F\u007F-\u009F]/g;

/** A key shown in a detail: its control characters escaped, so the detail itself stays clean. */
const printable = (k: string) =>
  k
    .replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD');

/** Where refused text was found: a request part (low-cardinality label of signet_gateway_text_refused_total). */
export type TextPart = 'path' | 'query' | 'headers' | 'body' | 'multipart';

/** The 400 of the text rule, telling the counter (app.ts) which part of the request held it. */
export class TextRefused extends HttpError {
  constructor(
    field: string,
    problem: string,
    readonly part: TextPart,
  ) {
    super(400, `${field}: ${problem}`);
  }
}

const PARTS: readonly string[] = ['path', 'query', 'headers', 'body'];

/** Refuses a request part holding unacceptable text: 400 naming the field (`where` when it is the part itself). */
export function refuseBadText(value: unknown, where: string): void {
  const found = findTextProblem(value);
  if (found) throw textError(found.field || where, found.problem, PARTS.includes(where) ? (where as TextPart) : 'body');
}

export const textError = (field: string, problem: string, part: TextPart = 'body'): HttpError =>
  new TextRefused(field, problem, part);

/** Counts the text rule's refusals by request part (signet_gateway_text_refused_total), then lets the error boundary answer. */
export function countTextRefusals(metrics: Metrics): ErrorRequestHandler {
  const refused = metrics.counter(
    'signet_gateway_text_refused_total',
    'Requests refused (400) for control characters or ill-formed Unicode in their text, by request part',
    ['part'],
  );
  return (err, _req, _res, next) => {
    if (err instanceof TextRefused) refused.inc({ part: err.part });
    next(err);
  };
}

/** Options of a text field. */
export type TextOptions = {
  /** At most this many characters (after normalisation); every text field is bounded. */
  max: number;
  /** At least this many characters (after trimming when `trim`); default 0. */
  min?: number;
  /** Trim surrounding white space. */
  trim?: boolean;
  /** NFC-normalise (names that are compared or shown: the same name typed on two systems is one name). */
  nfc?: boolean;
  /**
   * The field's name, put in front of every detail ("signer_name: must …") for parsers that report a
   * message alone; without it route.ts names the field.
   */
  field?: string;
};

/**
 * The one string type of request text: the control-character rule above, bounded length, optional
 * trimming and NFC normalisation. Details follow the house form "<field>: must …".
 */
export function text(o: TextOptions) {
  const say = (m: string) => (o.field ? `${o.field}: ${m}` : m);
  let s = z
    .string({ error: (iss) => say(iss.input === undefined ? 'is required' : 'must be text') })
    .refine((v) => textProblem(v) === undefined, { error: (iss) => say(textProblem(String(iss.input)) ?? 'is not valid text') });
  if (o.trim) s = s.trim();
  if (o.nfc) s = s.overwrite((v) => v.normalize('NFC'));
  if (o.min) s = s.min(o.min, say(o.min === 1 ? 'must not be empty' : `must be at least ${o.min} characters`));
  return s.max(o.max, say(`must be at most ${o.max} characters`));
}

/** A JSON value a client sends (e.g. forensic event data): every string and key in it obeys the text rule. */
export const jsonText = z.unknown().superRefine((v, ctx) => {
  const found = findTextProblem(v);
  if (found) ctx.addIssue({ code: 'custom', message: found.problem, path: found.field ? found.field.split('.') : [] });
});
