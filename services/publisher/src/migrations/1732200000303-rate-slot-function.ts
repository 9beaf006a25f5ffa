import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * take_rate_slots: the rate limiter's check-and-take in one round trip. Locks every key
 * (sorted, transaction-scoped advisory locks), answers how many milliseconds until the fullest
 * window has room, or takes one slot per key and answers 0.
 */
export class RateSlotFunction1732200000303 implements MigrationInterface {
  name = 'RateSlotFunction1732200000303';
  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION take_rate_slots(p_keys text[], p_key_of int[], p_limits int[], p_windows_ms bigint[]) RETURNS bigint
      LANGUAGE plpgsql AS $fn$
      DECLARE
        k text;
        i int;
        w bigint;
        wait_ms bigint := 0;
        longest bigint;
      BEGIN
        FOR k IN SELECT DISTINCT x FROM unnest(p_keys) AS x ORDER BY x LOOP
          PERFORM pg_advisory_xact_lock(hashtextextended(k, 0));
        END LOOP;
        FOR i IN 1 .. coalesce(array_length(p_limits, 1), 0) LOOP
          SELECT GREATEST(0, ceil(EXTRACT(EPOCH FROM (s.taken_at + p_windows_ms[i] * interval '1 millisecond' - clock_timestamp())) * 1000))::bigint + 1
            INTO w
            FROM rate_slots s
            WHERE s.key = p_keys[p_key_of[i]] AND s.taken_at > clock_timestamp() - p_windows_ms[i] * interval '1 millisecond'
            ORDER BY s.taken_at DESC OFFSET p_limits[i] - 1 LIMIT 1;
          IF FOUND AND w > wait_ms THEN wait_ms := w; END IF;
        END LOOP;
        IF wait_ms > 0 THEN RETURN wait_ms; END IF;
        FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
          SELECT max(p_windows_ms[j]) INTO longest FROM generate_subscripts(p_key_of, 1) AS j WHERE p_key_of[j] = i;
          DELETE FROM rate_slots WHERE key = p_keys[i] AND taken_at < clock_timestamp() - coalesce(longest, 0) * interval '1 millisecond';
          INSERT INTO rate_slots (key, taken_at) VALUES (p_keys[i], clock_timestamp());
        END LOOP;
        RETURN 0;
      END
      $fn$`);
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION take_rate_slots(text[], int[], int[], bigint[])');
  }
}
