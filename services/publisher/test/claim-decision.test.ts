import { decideClaim, type AttemptFacts, type ClaimRequest } from '../src/attempts/claim-decision';

const NOW = new Date('2026-03-01T12:00:00Z');
const GRACE_MS = 5000;

const facts = (over: Partial<AttemptFacts> = {}): AttemptFacts => ({
  state: 'retry',
  ownerId: null,
  ownerAlive: false,
  seq: 3,
  nextAt: new Date(NOW.getTime() + 1000),
  ...over,
});
const request = (over: Partial<ClaimRequest> = {}): ClaimRequest => ({
  workerId: 'me',
  messageSeq: 3,
  followUpGraceMs: GRACE_MS,
  now: NOW,
  ...over,
});

describe('decideClaim', () => {
  test.each(['published', 'failed'] as const)(
    'when the attempt is %s, then the outcome is re-announced, whatever the message',
    (state) => {
      expect(decideClaim(facts({ state }), request())).toEqual({ action: 'reannounce' });
      expect(decideClaim(facts({ state }), request({ messageSeq: undefined }))).toEqual({ action: 'reannounce' });
    },
  );

  test('when the attempt is in flight with another worker that is alive, then the delivery parks', () => {
    expect(decideClaim(facts({ state: 'in_flight', ownerId: 'other', ownerAlive: true }), request())).toEqual({
      action: 'park',
    });
  });

  test('when the attempt is in flight with another worker presumed dead, then it is recovered', () => {
    expect(decideClaim(facts({ state: 'in_flight', ownerId: 'other', ownerAlive: false }), request())).toEqual({
      action: 'take',
      mode: 'recover',
    });
  });

  test('when the attempt is in flight with no owner, then it is recovered', () => {
    expect(decideClaim(facts({ state: 'in_flight', ownerId: null }), request())).toEqual({
      action: 'take',
      mode: 'recover',
    });
  });

  test('when the attempt is in flight with this worker (its delivery failed mid-way), then it is recovered even though this worker is alive', () => {
    expect(decideClaim(facts({ state: 'in_flight', ownerId: 'me', ownerAlive: true }), request())).toEqual({
      action: 'take',
      mode: 'recover',
    });
  });

  test('when a retry is scheduled and the message carries its seq, then the retry runs', () => {
    expect(decideClaim(facts({ state: 'retry' }), request())).toEqual({ action: 'take', mode: 'retry' });
  });

  test('when the platform is processing and the message carries the seq, then a status check runs', () => {
    expect(decideClaim(facts({ state: 'waiting' }), request())).toEqual({ action: 'take', mode: 'check' });
  });

  test('when the message carries another seq (or none) and the follow-up is not overdue, then the delivery is dropped', () => {
    expect(decideClaim(facts(), request({ messageSeq: 2 }))).toEqual({ action: 'drop' });
    expect(decideClaim(facts(), request({ messageSeq: undefined }))).toEqual({ action: 'drop' });
  });

  test('when no follow-up time is recorded and the seq differs, then the delivery is dropped', () => {
    expect(decideClaim(facts({ nextAt: null }), request({ messageSeq: 9 }))).toEqual({ action: 'drop' });
  });

  test('when the follow-up is exactly at the end of its grace, then it is not yet presumed lost', () => {
    const nextAt = new Date(NOW.getTime() - GRACE_MS);
    expect(decideClaim(facts({ nextAt }), request({ messageSeq: undefined }))).toEqual({ action: 'drop' });
  });

  test.each([
    ['retry', 'retry'],
    ['waiting', 'check'],
  ] as const)(
    'when a %s follow-up is later than its grace, then any delivery of the post takes over (%s)',
    (state, mode) => {
      const nextAt = new Date(NOW.getTime() - GRACE_MS - 1);
      expect(decideClaim(facts({ state, nextAt }), request({ messageSeq: undefined }))).toEqual({
        action: 'take',
        mode,
      });
      expect(decideClaim(facts({ state, nextAt }), request({ messageSeq: 1 }))).toEqual({ action: 'take', mode });
    },
  );
});
