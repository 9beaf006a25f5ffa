import type { MessageProperties } from 'amqplib';

/**
 * One of the string properties we set on every message. amqplib types all of them as `any`;
 * a message from elsewhere may lack one or carry another type, which reads as absent.
 */
export function stringProperty(
  properties: MessageProperties,
  name: 'messageId' | 'correlationId' | 'replyTo' | 'type',
): string | undefined {
  const value: unknown = properties[name];
  return typeof value === 'string' ? value : undefined;
}
