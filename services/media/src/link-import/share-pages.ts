import { AppError } from '@postbus/contracts';

/** A file host whose share links open a web page rather than the file. */
interface ShareHost {
  name: string;
  domains: string[];
  /** True when this link of the host already points at the file. */
  isDirect(url: URL): boolean;
  /** How to get a direct link for this file, and that link when it can be built. */
  advise(url: URL): { instructions: string; directUrl?: string };
}

const UPLOAD_INSTEAD = 'Download the file and upload it with POST /api/v1/media (svc_upload_media for agents) instead.';

const SHARE_HOSTS: ShareHost[] = [
  {
    name: 'Google Drive',
    domains: ['drive.google.com', 'docs.google.com', 'drive.usercontent.google.com'],
    isDirect: (u) =>
      u.hostname === 'drive.usercontent.google.com' ||
      (u.hostname === 'drive.google.com' &&
        /\/uc$/.test(u.pathname) &&
        u.searchParams.get('export') === 'download' &&
        !!u.searchParams.get('id')),
    advise(u) {
      const id = u.pathname.match(/\/d\/([\w-]+)/)?.[1] ?? u.searchParams.get('id') ?? undefined;
      const directUrl = id ? `https://drive.google.com/uc?export=download&id=${id}` : undefined;
      return {
        instructions: `Google Drive share links open a preview page, not the file. Share the file with "Anyone with the link", then send ${directUrl ?? 'https://drive.google.com/uc?export=download&id=<FILE_ID> (the id is the part after /d/ in the share link)'}. Files too large for Google's virus scan still open a page: ${UPLOAD_INSTEAD}`,
        directUrl,
      };
    },
  },
  {
    name: 'Dropbox',
    domains: ['dropbox.com', 'dl.dropboxusercontent.com'],
    isDirect: (u) =>
      u.hostname.endsWith('dropboxusercontent.com') ||
      u.searchParams.get('dl') === '1' ||
      u.searchParams.get('raw') === '1',
    advise(u) {
      const direct = new URL(u.href);
      direct.searchParams.set('dl', '1');
      return {
        instructions: `Dropbox share links open a preview page. Change dl=0 to dl=1 at the end of the link: ${direct.href}`,
        directUrl: direct.href,
      };
    },
  },
  {
    name: 'OneDrive',
    domains: ['1drv.ms', 'onedrive.live.com', 'sharepoint.com'],
    isDirect: (u) =>
      (u.hostname === 'onedrive.live.com' && u.pathname.startsWith('/download')) ||
      (u.hostname.endsWith('sharepoint.com') && u.searchParams.get('download') === '1'),
    advise(u) {
      if (u.hostname.endsWith('sharepoint.com')) {
        const direct = new URL(u.href);
        direct.searchParams.set('download', '1');
        return {
          instructions: `OneDrive and SharePoint share links open a viewer. Add download=1 to the link: ${direct.href}`,
          directUrl: direct.href,
        };
      }
      return {
        instructions: `OneDrive share links open a viewer. Open the file in OneDrive, choose Embed, copy the address from the embed code and replace "embed" with "download" in it (https://onedrive.live.com/download?…). ${UPLOAD_INSTEAD}`,
      };
    },
  },
  {
    name: 'WeTransfer',
    domains: ['wetransfer.com', 'we.tl'],
    isDirect: () => false,
    advise: () => ({
      instructions: `WeTransfer links lead to a download page that expires, never to the file itself. ${UPLOAD_INSTEAD}`,
    }),
  },
  {
    name: 'iCloud',
    domains: ['icloud.com'],
    isDirect: () => false,
    advise: () => ({ instructions: `iCloud links open a web page, not the file. ${UPLOAD_INSTEAD}` }),
  },
];

function hostOf(url: URL): ShareHost | undefined {
  const host = url.hostname.toLowerCase();
  return SHARE_HOSTS.find((h) => h.domains.some((d) => host === d || host.endsWith(`.${d}`)));
}

function notDirect(host: ShareHost | undefined, url: URL, why: string): AppError {
  if (!host) {
    return new AppError(
      'media_url_not_direct',
      `${why} Send a link that points straight at the image or video: open the page in a browser, right-click the media and copy its address, or use the host's direct download link. ${UPLOAD_INSTEAD}`,
    );
  }
  const { instructions, directUrl } = host.advise(url);
  return new AppError('media_url_not_direct', `${why} ${instructions}`, {
    host: host.name,
    ...(directUrl ? { directUrl } : {}),
  });
}

/** Refuses a known share page before anything is downloaded. */
export function assertNotSharePage(url: URL): void {
  const host = hostOf(url);
  if (host && !host.isDirect(url))
    throw notDirect(host, url, `This ${host.name} link opens a share page, not the file.`);
}

/** The error for a link (or one it redirected to) that answered a web page; instructions for the first known host. */
export function webPageError(chain: URL[]): AppError {
  const known = chain.find((u) => hostOf(u));
  return notDirect(known && hostOf(known), known ?? chain[0], 'This link leads to a web page, not to a file.');
}
