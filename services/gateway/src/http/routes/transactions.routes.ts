import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/transactions routes: filled in by its issue. */
export function transactionsRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
