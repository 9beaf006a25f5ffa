import { newId } from '@postbus/contracts';
import type { NewPost } from '../src/posts/post.repository';

/** Test data: `aPost().forAccount(a).dueIn(-1000).build()`. */
export function aPost() {
  const row: NewPost = {
    id: newId('pst'),
    account_id: 'acc_test',
    request_id: newId('crq'),
    profile_id: 'prf_test',
    platform: 'threads',
    status: 'scheduled',
    caption: 'a caption',
    title: null,
    media_urls: [],
    media_id: null,
    platform_meta: null,
    external_id: null,
    category: null,
    scheduled_time: new Date(Date.now() + 3600_000),
  };
  const builder = {
    forAccount: (accountId: string) => ((row.account_id = accountId), builder),
    withStatus: (status: NewPost['status']) => ((row.status = status), builder),
    dueIn: (ms: number) => ((row.scheduled_time = new Date(Date.now() + ms)), builder),
    withoutTime: () => ((row.scheduled_time = null), builder),
    build: (): NewPost => ({ ...row }),
  };
  return builder;
}
