/** How long the person has, after opening the link, to finish at the platform. */
export const AUTHORIZATION_WINDOW_MS = 10 * 60_000;
