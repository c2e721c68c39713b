import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The built browser pages (the signing page, the dashboard and the /verify page): `dist/` of the @signet/web package,
 * resolved as a dependency so the same lookup works from the repository and from a deployed image.
 */
export const WEB_DIST = join(dirname(createRequire(import.meta.url).resolve('@signet/web/package.json')), 'dist') + '/';
