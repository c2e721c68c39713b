import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/auth routes: filled in by its issue. */
export function authRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
