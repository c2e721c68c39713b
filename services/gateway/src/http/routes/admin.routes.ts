import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/admin routes: filled in by its issue. */
export function adminRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
