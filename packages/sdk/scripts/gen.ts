/**
 * Regenerates the SDK from the gateway's OpenAPI document: openapi.json (the document, for readers
 * and other generators) and src/schema.ts (openapi-typescript). `pnpm --filter @signet/sdk gen`;
 * src/generated.test.ts fails when either is stale.
 */
import { writeFileSync } from 'node:fs';
import { generate, OUTPUTS } from './generate.js';

const out = await generate();
writeFileSync(OUTPUTS.document, out.document);
writeFileSync(OUTPUTS.schema, out.schema);
process.exit(0);
