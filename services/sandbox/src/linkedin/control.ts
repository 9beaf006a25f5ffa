import { Router, json } from 'express';
import type { SandboxState } from '../state';
import type { LinkedInSandboxLimits } from './store';

const ROLES = ['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER', 'ANALYST', 'RECRUITING_POSTER'];

/**
 * `/__sandbox/linkedin`: organizations and the roles members hold in them, and the emulator's limits.
 * - POST /organizations {name, vanityName?, roles: {memberUserId: role}} → 201 {id, urn}
 * - POST /limits {…LinkedInSandboxLimits} → 200 the limits in force (reset restores them)
 */
export function linkedinControlRouter(state: SandboxState): Router {
  const router = Router();
  router.use(json({ limit: '64kb' }));
  router.post('/organizations', (req, res) => {
    const b = (req.body ?? {}) as { name?: unknown; vanityName?: unknown; roles?: unknown };
    if (typeof b.name !== 'string' || !b.name.trim() || b.name.length > 100)
      return void res.status(400).json({ error: 'name (1 to 100 characters) is required', code: 'validation_error' });
    const roles = new Map<string, string>();
    for (const [userId, role] of Object.entries((b.roles ?? {}) as Record<string, unknown>)) {
      if (!state.users.get(userId) || state.users.get(userId)?.platform !== 'linkedin' || !ROLES.includes(String(role)))
        return void res.status(400).json({
          error: `roles: ${userId} must be a LinkedIn member and role one of ${ROLES.join(', ')}`,
          code: 'validation_error',
        });
      roles.set(userId, String(role));
    }
    const id = String(state.ids.numeric()).slice(-9);
    const vanityName = typeof b.vanityName === 'string' && b.vanityName ? b.vanityName : `org-${id}`;
    state.linkedin.organizations.set(id, { id, name: b.name, vanityName, roles });
    res.status(201).json({ id, urn: `urn:li:organization:${id}`, vanityName });
  });
  router.post('/limits', (req, res) => {
    const patch = (req.body ?? {}) as Partial<LinkedInSandboxLimits>;
    for (const [k, v] of Object.entries(patch))
      if (k in state.linkedin.limits && typeof v === typeof state.linkedin.limits[k as keyof LinkedInSandboxLimits])
        (state.linkedin.limits as unknown as Record<string, unknown>)[k] = v;
    res.json(state.linkedin.limits);
  });
  return router;
}
