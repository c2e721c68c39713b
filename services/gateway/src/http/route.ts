import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { z } from 'zod';
import type { ZodOpenApiOperationObject, ZodOpenApiResponseObject } from 'zod-openapi';
import { badRequest, HttpError } from './errors.js';
import { refuseBadText } from './text.js';
import type { Caller, Role } from './context.js';
import { checkRole, requiredRole } from './roles.js';

/** The one error body of the API: every 4xx and 5xx answers `{"detail": ...}`. */
export const errorSchema = z
  .object({ detail: z.string().meta({ description: 'What went wrong, for a person to read' }) })
  .meta({ id: 'Error', description: 'Every error answer' });

/** A response header as the route declares it: documented, and checked on the answer when responses are validated. */
export type HeaderSpec = { description: string; schema: z.ZodType; required?: boolean };

/** Headers the gateway sends on more than one route, declared once. */
export const HEADERS = {
  retryAfter: {
    description: 'Seconds to wait before trying again',
    schema: z.string().regex(/^\d+$/).meta({ example: '30' }),
    required: true,
  },
  nextCursor: {
    description: 'The cursor of the next page; absent on the last page',
    schema: z.string(),
  },
  link: {
    description: 'RFC 8288 link to the next page (rel="next"), keeping the filter; absent on the last page',
    schema: z.string(),
  },
  cacheControl: {
    description: 'Always no-store: the answer carries tokens or personal data',
    schema: z.string(),
    required: true,
  },
} satisfies Record<string, HeaderSpec>;

/** One response of an operation: a JSON body schema, or another media type, and its headers. */
export type ResponseSpec = {
  description: string;
  /** The JSON body. */
  body?: z.ZodType;
  /** A body that is not JSON (CSV, PDF, text), by media type; beside `body` when the client may choose. */
  content?: Record<string, z.ZodType>;
  headers?: Record<string, HeaderSpec>;
};

/** What an error status means when the route says nothing more specific. */
const ERROR_TEXT: Record<number, string> = {
  400: 'The request is malformed or a field is not valid',
  401: 'Missing or invalid authentication',
  402: 'The monthly quota and the signature credits are exhausted',
  403: 'Not allowed',
  404: 'Not found (also for another owner’s resource)',
  409: 'The resource is not in a state that allows this',
  413: 'The body is too large',
  429: 'Rate limited: wait Retry-After seconds',
  500: 'Internal error, with a correlation id',
  503: 'A service is unavailable or busy: retry after Retry-After seconds',
};

/** Error responses with the shared `{"detail"}` body, by status; 500 and 503 are added to every operation. */
export function errorResponses(...statuses: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries([...new Set([...statuses, 500, 503])].map((s) => [s, errorResponse(s)]));
}

/** An error response with the shared `{"detail"}` body; 429 and 503 carry Retry-After. */
export function errorResponse(status: number, description = ERROR_TEXT[status] ?? 'Error'): ResponseSpec {
  return {
    description,
    body: errorSchema,
    ...(status === 429 || status === 503 ? { headers: { 'Retry-After': HEADERS.retryAfter } } : {}),
  };
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Security = 'caller' | 'session' | 'public';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** A JSON answer, typed by the operation's declared responses. */
type Reply<Rs extends Record<number, ResponseSpec>> = {
  [S in keyof Rs & number]: Rs[S]['body'] extends z.ZodType
    ? { status: S; body: z.input<Rs[S]['body']>; headers?: Record<string, string> }
    : never;
}[keyof Rs & number];

/**
 * One operation, declared once: its request schemas (params, query and headers are zod objects of
 * the strings as they arrive; the JSON body any zod schema), every response, and the handler. The
 * same declaration validates the request, types the handler's answer, checks answers in tests and
 * is the operation of the OpenAPI document.
 */
export type RouteSpec<P, Q, H, B, Rs extends Record<number, ResponseSpec>> = {
  method: Method;
  /** The OpenAPI path: `/api/transactions/{id}` (mounted as `/api/transactions/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Security;
  params?: P;
  query?: Q;
  headers?: H;
  /** A JSON body (parsed by a body parser among `use`). */
  body?: B;
  /** A body read by the handler itself (multipart, raw bytes): documented only, by media type. */
  rawBody?: { description?: string; content: Record<string, z.ZodType> };
  /** Middleware before validation: authentication, guards, body parsers. */
  use?: RequestHandler[];
  /**
   * The least role of the caller's organisation this operation needs (roles.ts); unset: viewer for a
   * GET, sender otherwise. Checked after `use` (authentication) and shown as `x-signet-role`.
   */
  role?: Role;
  /** Specification extensions of the operation, e.g. `x-rate-limit`. */
  extensions?: Record<`x-${string}`, unknown>;
  /** Path parameters that do not validate name a resource that does not exist: this error instead of 400. */
  invalidParams?: () => HttpError;
  responses: Rs;
  /**
   * The handler: a JSON answer (typed by its status's schema; checked in tests), or undefined when it
   * has answered itself (streams, CSV, PDF).
   */
  handle(
    input: { params: Out<P>; query: Out<Q>; headers: Out<H>; body: Out<B> },
    req: Request,
    res: Response,
  ): Promise<Reply<Rs> | undefined>;
};

/** A declared operation: its spec, erased for collections. */
export type AnyRoute = RouteSpec<any, any, any, any, any>;

export function defineRoute<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  H extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  Rs extends Record<number, ResponseSpec> = Record<number, ResponseSpec>,
>(spec: RouteSpec<P, Q, H, B, Rs>): RouteSpec<P, Q, H, B, Rs> {
  return spec;
}

/**
 * The one zod → 400: the detail names the first offending field. A message that already names its
 * field is kept as it is; a missing field is "<field> is required"; otherwise "<field>: <message>".
 */
export function zodBadRequest(error: z.ZodError, input: unknown, where = 'body'): HttpError {
  const issue = error.issues[0];
  if (!issue) return badRequest('invalid request');
  const field = issue.path.map(String).join('.') || where;
  if (issue.message.toLowerCase().startsWith(field.toLowerCase())) return badRequest(issue.message);
  const value = issue.path.reduce<unknown>(
    (o, k) => (o && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );
  if (issue.path.length && value === undefined) return badRequest(`${field} is required`);
  return badRequest(`${field}: ${issue.message}`);
}

/**
 * Parses one part of a request with its schema, or throws the one 400. Every string in the part, the
 * fields no schema names included, first obeys the one text rule (text.ts).
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, where: string): z.output<S> {
  refuseBadText(input, where);
  const r = schema.safeParse(input);
  if (!r.success) throw zodBadRequest(r.error, input, where);
  return r.data;
}

const expressPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

export type MountOptions = {
  /** Check every JSON answer and its declared headers against the operation's schema (tests): a mismatch is a 500. */
  validateResponses?: boolean;
};

/** Mounts declared operations on a router: middleware, request validation, the handler, the answer. */
export function mountRoutes(router: Router, routes: AnyRoute[], opts: MountOptions = {}): void {
  for (const r of routes) {
    const role = requiredRole(r);
    const run = async (req: Request, res: Response, _next: NextFunction) => {
      if (role) checkRole(res.locals.caller as Caller | undefined, role);
      let params: unknown;
      if (r.params) {
        refuseBadText(req.params, 'path');
        const p = r.params.safeParse(req.params);
        if (!p.success) throw r.invalidParams ? r.invalidParams() : zodBadRequest(p.error, req.params, 'path');
        params = p.data;
      }
      const input = {
        params,
        query: r.query ? parseWith(r.query, req.query, 'query') : undefined,
        headers: r.headers ? parseWith(r.headers, headersOf(r.headers, req), 'headers') : undefined,
        body: r.body ? parseWith(r.body, bodyObject(req.body), 'body') : undefined,
      };
      const reply = await r.handle(input, req, res);
      if (!reply) return;
      for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v as string);
      if (opts.validateResponses) checkResponse(r, reply.status, reply.body, res);
      res.status(reply.status).json(reply.body);
    };
    router[r.method as Method](expressPath(r.path), ...(r.use ?? []), run);
  }
}

/** The declared headers of a request, by their declared names (`Idempotency-Key`; HTTP's are case-insensitive). */
function headersOf(schema: z.ZodObject, req: Request): Record<string, unknown> {
  return Object.fromEntries(Object.keys(schema.shape).map((name) => [name, req.headers[name.toLowerCase()]]));
}

/** A JSON body that is not an object is refused as parse-body always did. */
export function bodyObject(body: unknown): unknown {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body))
    throw badRequest('request body must be a JSON object (Content-Type: application/json)');
  return body;
}

/** The answer's status must be declared, its body match its schema, its required headers be present and well-formed. */
function checkResponse(r: AnyRoute, status: number, body: unknown, res: Response): void {
  const spec = (r.responses as Record<number, ResponseSpec>)[status];
  if (!spec) throw new Error(`${r.operationId}: status ${status} is not declared`);
  if (spec.body) {
    const ok = spec.body.safeParse(body);
    if (!ok.success) throw new Error(`${r.operationId}: the ${status} body does not match its schema: ${ok.error.message}`);
  }
  for (const [name, h] of Object.entries(spec.headers ?? {})) {
    const v = res.getHeader(name);
    if (v === undefined) {
      if (h.required) throw new Error(`${r.operationId}: header ${name} is required on ${status}`);
      continue;
    }
    const ok = h.schema.safeParse(String(v));
    if (!ok.success) throw new Error(`${r.operationId}: header ${name} does not match its schema`);
  }
}

const SECURITY: Record<Security, Record<string, string[]>[]> = {
  caller: [{ apiKey: [] }, { bearer: [] }],
  session: [{ bearer: [] }],
  public: [],
};

const headersObject = (headers: Record<string, HeaderSpec>) =>
  z.object(
    Object.fromEntries(
      Object.entries(headers).map(([name, h]) => [
        name,
        (h.required ? h.schema : h.schema.optional()).meta({ description: h.description }),
      ]),
    ),
  );

/** The OpenAPI response object of a declared response. */
export function responseObject(s: ResponseSpec): ZodOpenApiResponseObject {
  const media = {
    ...(s.body ? { 'application/json': { schema: s.body } } : {}),
    ...Object.fromEntries(Object.entries(s.content ?? {}).map(([type, schema]) => [type, { schema }])),
  };
  return {
    description: s.description,
    ...(Object.keys(media).length ? { content: media } : {}),
    ...(s.headers ? { headers: headersObject(s.headers) } : {}),
  };
}

/** The OpenAPI operation of a declared route (zod-openapi turns its schemas into JSON Schema). */
export function operationOf(r: Omit<AnyRoute, 'handle'>): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, spec] of Object.entries(r.responses as Record<number, ResponseSpec>))
    responses[status] = responseObject(spec);
  // An operation above the lowest role refuses a caller below it (roles.ts).
  const role = requiredRole(r);
  if (role && role !== 'viewer' && !responses['403'])
    responses['403'] = responseObject(
      errorResponse(403, `The caller’s role is below ${role} (an API key: its scopes or its member’s role)`),
    );
  // A path parameter that is not percent-encoded UTF-8 is refused before any route code (errors.ts).
  if (r.params && !responses['400'])
    responses['400'] = responseObject(errorResponse(400, 'A path parameter is not valid percent-encoded UTF-8'));
  const requestBody = r.body
    ? { required: true, content: { 'application/json': { schema: r.body } } }
    : r.rawBody
      ? {
          required: true,
          ...(r.rawBody.description ? { description: r.rawBody.description } : {}),
          content: Object.fromEntries(
            Object.entries(r.rawBody.content as Record<string, z.ZodType>).map(([t, schema]) => [t, { schema }]),
          ),
        }
      : undefined;
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: r.tags,
    ...(r.extensions ?? {}),
    ...(role ? { 'x-signet-role': role } : {}),
    security: SECURITY[r.security as Security],
    ...(r.params || r.query || r.headers
      ? {
          requestParams: {
            ...(r.params ? { path: r.params } : {}),
            ...(r.query ? { query: r.query } : {}),
            ...(r.headers ? { header: r.headers } : {}),
          },
        }
      : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}
