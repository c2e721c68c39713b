import { Router } from 'express';
import type { GatewayContext, RouteModule } from '../context.js';

/** /api/sign routes: filled in by its issue. */
export function signRoutes(_ctx: GatewayContext): RouteModule {
  const router = Router();
  return { router, openapi: {} };
}
