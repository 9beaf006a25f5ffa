import type { Request, Response, Router } from 'express';
import type { SandboxState } from '../state';
import type { SandboxUser } from '../users';
import { LinkedInError, memberOf, passFault, send } from './wire';

/** Roles that may post as an organization: https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-access-control-by-role */
export const POSTING_ROLES = ['ADMINISTRATOR', 'CONTENT_ADMIN', 'DIRECT_SPONSORED_CONTENT_POSTER'];

/**
 * An author (or asset owner) the member may act for: the member itself (`urn:li:person:{id}`) or an
 * organization where the member holds a posting role; anything else is 403 ACCESS_DENIED.
 */
export function assertMayAuthor(state: SandboxState, user: SandboxUser, author: string): void {
  if (author === `urn:li:person:${user.userId}`) return;
  const orgId = /^urn:li:organization:(\d+)$/.exec(author)?.[1];
  const role = orgId ? state.linkedin.organizations.get(orgId)?.roles.get(user.userId) : undefined;
  if (role && POSTING_ROLES.includes(role)) return;
  throw new LinkedInError(
    403,
    'ACCESS_DENIED',
    `Not enough permissions to access: partnerApiPostsExternal.CREATE.20240101 (author ${author.slice(0, 80)})`,
  );
}

/**
 * organizationAcls?q=roleAssignee (the member's roles, filtered by `role` and `state`) and
 * organizations/{id} (https://learn.microsoft.com/en-us/linkedin/marketing/community-management/organizations/organization-lookup-api).
 * Fault operation: `read`.
 */
export function organizationRoutes(router: Router, state: SandboxState): void {
  router.get('/rest/organizationAcls', (req: Request, res: Response) => {
    const user = memberOf(state, req);
    if (!passFault(state, 'read', res)) return;
    if (req.query.q !== 'roleAssignee')
      throw new LinkedInError(400, 'ILLEGAL_ARGUMENT', 'q must be roleAssignee for this member');
    const role = typeof req.query.role === 'string' ? req.query.role : undefined;
    const elements = [...state.linkedin.organizations.values()].flatMap((org) => {
      const held = org.roles.get(user.userId);
      if (!held || (role && held !== role)) return [];
      return [
        {
          roleAssignee: `urn:li:person:${user.userId}`,
          state: 'APPROVED',
          role: held,
          organization: `urn:li:organization:${org.id}`,
        },
      ];
    });
    send(state, res, 200, { paging: { start: 0, count: elements.length, links: [] }, elements });
  });

  router.get('/rest/organizations/:id', (req: Request, res: Response) => {
    memberOf(state, req);
    if (!passFault(state, 'read', res)) return;
    const org = state.linkedin.organizations.get(String(req.params.id));
    if (!org) throw new LinkedInError(404, 'NOT_FOUND', `Organization ${String(req.params.id).slice(0, 30)} not found`);
    send(state, res, 200, {
      id: Number(org.id),
      localizedName: org.name,
      vanityName: org.vanityName,
      $URN: `urn:li:organization:${org.id}`,
    });
  });
}
