import { boundTo, KeyRing, SEALED_PREFIX } from '@postbus/kit';

/** The columns of an endpoint that hold a signing secret. */
export type SecretColumn = 'secret' | 'previous_secret';

/**
 * Signing secrets sealed at rest with AES-256-GCM (see KeyRing), each bound to its endpoint and
 * its column: a sealed secret copied to another endpoint does not open there. Opened only to sign.
 */
export class WebhookSecretBox {
  constructor(readonly ring: KeyRing) {}

  seal(endpointId: string, column: SecretColumn, secret: string): string {
    return this.ring.seal(secret, boundTo(endpointId, column));
  }

  open(endpointId: string, column: SecretColumn, sealed: string): string {
    return this.ring.open(sealed, boundTo(endpointId, column));
  }

  /** The stored value sealed with the current key: secrets of earlier versions were kept in clear. */
  upgrade(endpointId: string, column: SecretColumn, stored: string): string {
    const at = boundTo(endpointId, column);
    return stored.startsWith(SEALED_PREFIX) ? this.ring.reseal(stored, at) : this.ring.seal(stored, at);
  }
}
