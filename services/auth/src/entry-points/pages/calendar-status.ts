import type { PostStatus } from '@postbus/contracts';

/** Each status's words and colours: the words are always shown, the colour only helps the eye. */
export const STATUS_STYLES: Record<PostStatus, { label: string; background: string; edge: string }> = {
  scheduled: { label: 'Scheduled', background: '#e3ecfd', edge: '#1d4ed8' },
  posted: { label: 'Posted', background: '#e2f6e7', edge: '#15803d' },
  failed: { label: 'Failed', background: '#fde7e7', edge: '#b91c1c' },
  cancelled: { label: 'Cancelled', background: '#eceef2', edge: '#6b7280' },
  draft: { label: 'Draft', background: '#fdf6d8', edge: '#a16207' },
  pending_approval: { label: 'Pending approval', background: '#f1e6fd', edge: '#7e22ce' },
  rejected: { label: 'Rejected', background: '#fdebdc', edge: '#c2410c' },
};

const known = (status: string): status is PostStatus => Object.hasOwn(STATUS_STYLES, status);

export const statusLabel = (status: string) => (known(status) ? STATUS_STYLES[status].label : status);
/** The class of a post in that status; a status this page does not know yet gets a plain one. */
export const statusClass = (status: string) => (known(status) ? `status-${status.replace('_', '-')}` : 'status-other');

export const STATUS_CSS = Object.entries(STATUS_STYLES)
  .map(
    ([status, s]) =>
      `.post.${statusClass(status)}, .legend .${statusClass(status)} { background: ${s.background}; border-left-color: ${s.edge}; }`,
  )
  .join('\n');
