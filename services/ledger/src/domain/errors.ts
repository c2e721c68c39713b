import { notFound } from '@signet/kit';

/** One answer for an unknown reference and a wrong hash prefix, so neither can be probed. */
export const certificateNotFound = () => notFound('no certificate matches this reference and document hash');
