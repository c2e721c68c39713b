import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '@signet/kit';
import { errorBoundary, HttpError } from './errors.js';
import { defineRoute, errorResponses, mountRoutes, operationOf, zodBadRequest } from './route.js';

describe('zodBadRequest (the one zod → 400)', () => {
  const detail = (schema: z.ZodType, input: unknown) => {
    const r = schema.safeParse(input);
    if (r.success) throw new Error('accepted');
    const e = zodBadRequest(r.error, input);
    expect(e.status).toBe(400);
    return e.detail;
  };

  it('names the first offending field: missing, wrong, or in its own words', () => {
    const s = z.object({ name: z.string().min(1, 'must not be empty'), limit: z.number().max(5, 'limit must be at most 5') });
    expect(detail(s, {})).toBe('name is required');
    expect(detail(s, { name: '' })).toBe('name: must not be empty');
    expect(detail(s, { name: 'a', limit: 9 })).toBe('limit must be at most 5');
    expect(detail(z.object({ a: z.array(z.object({ b: z.string() })) }), { a: [{ b: 1 }] })).toMatch(/^a\.0\.b: /);
  });
});

describe('mountRoutes: one declaration validates the request and, with validateResponses, the answer', () => {
  let base = '';
  let close: () => void;
  const item = defineRoute({
    method: 'post',
    path: '/items/{id}',
    operationId: 'postItem',
    summary: 'Test item',
    tags: ['Test'],
    security: 'public',
    use: [express.json()],
    params: z.object({ id: z.string().regex(/^\d+$/) }),
    invalidParams: () => new HttpError(404, 'no such item'),
    query: z.object({ n: z.coerce.number().int('n must be an integer').optional() }),
    headers: z.object({ 'X-Tag': z.string().max(3, 'X-Tag must be at most 3 characters').optional() }),
    body: z.object({ name: z.string() }),
    responses: {
      200: { description: 'The item', body: z.object({ id: z.int(), name: z.string() }) },
      ...errorResponses(400, 404),
    },
    async handle({ params, body, query }) {
      // n=7 answers a body its schema refuses: caught only when responses are validated.
      return {
        status: 200 as const,
        body: { id: query.n === 7 ? ('seven' as unknown as number) : Number(params.id), name: body.name },
      };
    },
  });

  beforeAll(async () => {
    const app = express();
    const plain = express.Router();
    mountRoutes(plain, [item]);
    const checked = express.Router();
    mountRoutes(checked, [item], { validateResponses: true });
    app.use('/plain', plain);
    app.use('/checked', checked);
    app.use(errorBoundary(createLogger('gateway-test', 'silent')));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers a valid request with the handler’s body', async () => {
    expect(await post('/checked/items/4?n=2', { name: 'a' }, { 'x-tag': 'ab' })).toEqual({
      status: 200,
      body: { id: 4, name: 'a' },
    });
  });

  it('refuses each part with its own 400, and a bad path parameter as the route says', async () => {
    expect(await post('/plain/items/x', { name: 'a' })).toEqual({ status: 404, body: { detail: 'no such item' } });
    expect(await post('/plain/items/1?n=1.5', { name: 'a' })).toEqual({ status: 400, body: { detail: 'n must be an integer' } });
    expect(await post('/plain/items/1', { name: 'a' }, { 'x-tag': 'abcd' })).toEqual({
      status: 400,
      body: { detail: 'X-Tag must be at most 3 characters' },
    });
    expect(await post('/plain/items/1', {})).toEqual({ status: 400, body: { detail: 'name is required' } });
    expect((await post('/plain/items/1', [1])).body.detail).toMatch(/must be a JSON object/);
  });

  it('an answer its schema refuses passes unchecked, and is a 500 when responses are validated', async () => {
    expect((await post('/plain/items/1?n=7', { name: 'a' })).status).toBe(200);
    expect((await post('/checked/items/1?n=7', { name: 'a' })).status).toBe(500);
  });

  it('is the OpenAPI operation: id, parameters by their declared names, body and responses', () => {
    const op = operationOf(item);
    expect(op.operationId).toBe('postItem');
    expect(Object.keys(op.responses)).toEqual(['200', '400', '404', '500', '503']);
    expect(op.requestBody?.content['application/json']).toBeDefined();
    expect(Object.keys(op.requestParams ?? {})).toEqual(['path', 'query', 'header']);
  });
});
