import type { WebhookEventType } from '@postbus/contracts';

/** The JSON body every delivery carries (the Standard Webhooks shape: type, timestamp, data). */
export interface WebhookPayload {
  /** Stable per event: the same for every endpoint and every attempt. */
  id: string;
  type: WebhookEventType;
  /** When the event happened. */
  timestamp: string;
  data: Record<string, unknown>;
}

/** `evt_` + the bus event's id without dashes. */
export function webhookEventId(busEventId: string): string {
  return `evt_${busEventId.replace(/-/g, '')}`;
}
