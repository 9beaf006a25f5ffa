import type { RequestHandler } from 'express';

/** The Postbus mark: a post box with a letter slot, in one colour that reads on light and dark backgrounds. */
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="8" y="14" width="48" height="40" rx="8" fill="#e8590c"/><rect x="18" y="26" width="28" height="6" rx="3" fill="#fff"/><rect x="29" y="54" width="6" height="8" fill="#e8590c"/></svg>';

export const ICON_PATH = '/api/mcp/icon.svg';

/** The icon of the server and its tools (MCP `icons`, revision 2025-11-25), served from the endpoint's own origin. */
export function iconsOf(baseUrl: string) {
  return [{ src: `${baseUrl}${ICON_PATH}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
}

export const iconHandler: RequestHandler = (_req, res) => {
  res.setHeader('Cache-Control', 'public, max-age=86400');
  // An SVG served as an image never runs script; the policy keeps it so if opened directly.
  res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  res.type('image/svg+xml').send(ICON_SVG);
};
