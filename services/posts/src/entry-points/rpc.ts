import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import type { ApprovalPorts } from '../approvals/approvals.ports';
import { getApproval } from '../approvals/get-approval.use-case';
import { requestApproval } from '../approvals/request-approval.use-case';
import { getCalendar } from '../calendar/get-calendar.use-case';
import { bulkCreate } from '../posts/bulk-create.use-case';
import { cancelPost } from '../posts/cancel-post.use-case';
import { createDrafts } from '../posts/create-drafts.use-case';
import { createPosts } from '../posts/create-posts.use-case';
import { listPosts } from '../posts/list-posts.use-case';
import { withdrawProfile } from '../posts/named-profiles';
import { findOwnPost } from '../posts/post-access';
import type { ProfileFactRepository } from '../posts/profile-fact.repository';
import { toPost } from '../posts/post.repository';
import { updatePost } from '../posts/update-post.use-case';
import { validatePost } from '../posts/validate-post.use-case';
import { cancelSeries, getSeries, updateSeries } from '../series/series.use-cases';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  previewSlots,
  updateSchedule,
} from '../schedules/schedules.use-cases';

/** One line per command: the input is validated against its contract by the RPC server. */
export function registerRpc(rpc: RpcServer, ports: ApprovalPorts, facts: ProfileFactRepository): void {
  rpc.handle(Rpc.postsCreate, (input, { principal, callId }) =>
    createPosts(ports, principal, input.mode, input.body, { idempotencyKey: input.idempotencyKey, callId }),
  );
  rpc.handle(Rpc.postsCreateDrafts, (input, { principal, callId }) =>
    createDrafts(ports, principal, input.body, { idempotencyKey: input.idempotencyKey, callId }),
  );
  rpc.handle(Rpc.postsGet, async ({ id }, { principal }) => toPost(await findOwnPost(ports.posts, principal, id)));
  rpc.handle(Rpc.postsList, (filter, { principal }) => listPosts(ports, principal, filter));
  rpc.handle(Rpc.postsUpdate, ({ id, patch, reshuffle }, { principal }) =>
    updatePost(ports, principal, id, patch, reshuffle),
  );
  rpc.handle(Rpc.postsCancel, ({ id, reshuffle }, { principal }) => cancelPost(ports, principal, id, reshuffle));
  rpc.handle(Rpc.postsRequestApproval, ({ id }, { principal }) => requestApproval(ports, principal, id));
  rpc.handle(Rpc.postsGetApproval, ({ id }, { principal }) => getApproval(ports, principal, id));
  rpc.handle(Rpc.postsValidate, ({ body }, { principal }) => validatePost(ports, principal, body));
  rpc.handle(Rpc.postsProfileWithdrawn, async (withdrawn, { principal }) => {
    await withdrawProfile(facts, principal, withdrawn, ports.clock());
    return {};
  });
  rpc.handle(Rpc.schedulesCreate, ({ body, idempotencyKey }, { principal }) =>
    createSchedule(ports, principal, body, idempotencyKey),
  );
  rpc.handle(Rpc.schedulesList, (_input, { principal }) => listSchedules(ports, principal));
  rpc.handle(Rpc.schedulesGet, ({ id }, { principal }) => getSchedule(ports, principal, id));
  rpc.handle(Rpc.schedulesUpdate, ({ id, patch }, { principal }) => updateSchedule(ports, principal, id, patch));
  rpc.handle(Rpc.schedulesDelete, ({ id }, { principal }) => deleteSchedule(ports, principal, id));
  rpc.handle(Rpc.schedulesSlots, (input, { principal }) => previewSlots(ports, principal, input));
  rpc.handle(Rpc.seriesGet, ({ id }, { principal }) => getSeries(ports, principal, id));
  rpc.handle(Rpc.seriesUpdate, ({ id, patch }, { principal }) => updateSeries(ports, principal, id, patch));
  rpc.handle(Rpc.seriesCancel, ({ id }, { principal }) => cancelSeries(ports, principal, id));
  rpc.handle(Rpc.calendarGet, (input, { principal }) => getCalendar(ports, principal, input));
  rpc.handle(Rpc.postsBulkCreate, (input, { principal }) => bulkCreate(ports, principal, input));
}
