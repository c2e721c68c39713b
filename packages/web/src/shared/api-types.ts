/**
 * The pages' view of the API, derived from the SDK's generated types (@signet/sdk, generated from the
 * gateway's OpenAPI document): no response or request type is written by hand here, so a change of
 * the API shows up as a type error in the page that reads it. Types only: nothing of the SDK is
 * bundled.
 */
import type { components, paths } from '@signet/sdk';

export type Schemas = components['schemas'];
export type Path = keyof paths;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The operation at a path and method (never when the path has no such method). */
type Op<P extends Path, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
type Success = 200 | 201 | 202 | 204;

/** The JSON body of a successful answer (undefined for one without a body, e.g. 204). */
export type Ok<P extends Path, M extends Method> =
  Op<P, M> extends { responses: infer R } ? { [K in keyof R]: K extends Success ? Json<R[K]> : never }[keyof R] : never;

/** The JSON request body. */
export type Body<P extends Path, M extends Method> =
  Op<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

/** The query parameters. */
export type Query<P extends Path, M extends Method> =
  Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The path parameters (none: an empty record). */
export type PathParams<P extends Path, M extends Method> =
  Op<P, M> extends { parameters: { path: infer A } } ? A : Record<string, never>;

/** The URL of a path template with its parameters filled in (each one URL-encoded). */
export function fill(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`missing path parameter ${k}`);
    return encodeURIComponent(String(v));
  });
}
