import { REPLY_PLACEHOLDERS } from '@postbus/contracts';

const PLACEHOLDER = /\{([^{}]*)\}/g;
/** What `{name}` becomes when the platform sent no name. */
export const UNKNOWN_NAME = 'there';

/** The placeholders a reply text uses that this server does not know. */
export function unknownPlaceholders(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)]
    .map((m) => m[1])
    .filter((name) => !(REPLY_PLACEHOLDERS as readonly string[]).includes(name));
}

/** The reply as sent: `{name}` becomes the commenter's name (their username on Instagram). */
export function renderReply(text: string, commenter: { name: string | null }): string {
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    name === 'name' ? commenter.name?.trim() || UNKNOWN_NAME : whole,
  );
}
