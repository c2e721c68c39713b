import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/ledger routes: filled in by its issue. */
export function ledgerRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
