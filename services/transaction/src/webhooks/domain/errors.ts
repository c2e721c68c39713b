import { conflict, invalid, notFound } from '@signet/kit';

/** Typed errors of outgoing webhooks; the kit maps them to gRPC statuses once, the gateway to HTTP. */
export const endpointInvalid = (field: string, message: string) => invalid(`${field}: ${message}`, 'INVALID_FIELD');
export const endpointNotFound = () => notFound('no such webhook endpoint');
export const deliveryNotFound = () => notFound('no such webhook delivery');
/** The owner already has as many endpoints of the mode as allowed (409: the request was fine, the account is full). */
export const endpointLimit = (message: string) => conflict(message, 'ENDPOINT_LIMIT');
