import type { Database } from '@postbus/kit';
import { AppError } from '@postbus/contracts';
import { SEALED_PREFIX, type Logger } from '@postbus/kit';
import type { EndpointRepository } from './endpoint.repository';
import type { WebhookSecretBox } from './webhook-secret-box';

const BATCH = 200;

type SealingPorts = { db: Database; endpoints: EndpointRepository; secrets: WebhookSecretBox };

/**
 * Operator: re-seals every stored signing secret under the current WEBHOOK_SECRET_KEY_ID (those
 * sealed with a previous key, and any still in clear), in small transactions. Safe to run again and
 * from several replicas; once it answers, the previous keys can be removed.
 */
export async function rotateSecretKey(
  ports: SealingPorts,
): Promise<{ keyId: string; rotated: number; alreadyCurrent: number }> {
  const { ring } = ports.secrets;
  const alreadyCurrent = await ports.endpoints.countSecretsStoredWith(ring.currentPrefix);
  const { resealed } = await resealAll(ports, ring.currentPrefix, (err) => {
    throw new AppError(
      'internal_error',
      `A webhook secret could not be opened (${err.message}); add its key to WEBHOOK_SECRET_PREVIOUS_KEYS and run the rotation again.`,
    );
  });
  return { keyId: ring.currentKeyId, rotated: resealed, alreadyCurrent };
}

/**
 * At boot, before anything signs: secrets stored in clear by earlier versions are sealed. One that
 * cannot be opened (sealed with a key no longer configured) is left as it is and counted.
 */
export async function sealClearSecrets(ports: SealingPorts, logger: Logger): Promise<void> {
  const { resealed, unopened } = await resealAll(ports, SEALED_PREFIX, () => undefined);
  if (resealed) logger.info('webhook secrets kept in clear were sealed', { sealed: resealed });
  if (unopened)
    logger.warn(
      'webhook secrets no configured key opens were left as they were; add their key to WEBHOOK_SECRET_PREVIOUS_KEYS and run pnpm postbus rotate-webhook-key',
      { unopened },
    );
}

/** Seals, under the current key, every stored secret that does not start with `prefix`. */
async function resealAll(
  ports: SealingPorts,
  prefix: string,
  unopenable: (err: Error) => void,
): Promise<{ resealed: number; unopened: number }> {
  let resealed = 0;
  let unopened = 0;
  const reseal = (id: string, column: 'secret' | 'previous_secret', stored: string) => {
    if (stored.startsWith(prefix)) return stored;
    try {
      const value = ports.secrets.upgrade(id, column, stored);
      resealed++;
      return value;
    } catch (err) {
      unopenable(err as Error);
      unopened++;
      return stored;
    }
  };
  for (let afterId = ''; ;) {
    const rows = await ports.db.transaction(async (m) => {
      const locked = await ports.endpoints.lockSecretsStoredOtherwise(m, prefix, afterId, BATCH);
      for (const r of locked) {
        await ports.endpoints.saveSealedSecrets(
          m,
          r.id,
          reseal(r.id, 'secret', r.secret),
          r.previousSecret === null ? null : reseal(r.id, 'previous_secret', r.previousSecret),
        );
      }
      return locked;
    });
    if (!rows.length) break;
    afterId = rows[rows.length - 1].id;
  }
  return { resealed, unopened };
}
