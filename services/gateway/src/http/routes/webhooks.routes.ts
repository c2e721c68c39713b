import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/webhooks routes: filled in by its issue. */
export function webhooksRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
