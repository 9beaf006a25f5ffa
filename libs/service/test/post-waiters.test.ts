import { PostWaiters } from '../src/post-outcomes';

describe('PostWaiters', () => {
  test('when the bound is reached, then no more waiters enter until one is released', () => {
    const waiters = new PostWaiters(2);
    const a = waiters.enter('p1');
    const b = waiters.enter('p2');
    expect(a && b).toBeTruthy();
    expect(waiters.enter('p3')).toBeUndefined();
    expect(waiters.count).toBe(2);
    a!.release();
    a!.release();
    expect(waiters.count).toBe(1);
    expect(waiters.enter('p3')).toBeDefined();
  });

  test("when a post's outcome is heard, then only that post's waiters wake", async () => {
    const waiters = new PostWaiters(10);
    const mine = waiters.enter('p1')!;
    const other = waiters.enter('p2')!;
    let otherWoke = false;
    void other.woken.then(() => (otherWoke = true));
    waiters.wake('p1');
    await mine.woken;
    await Promise.resolve();
    expect(otherWoke).toBe(false);
    mine.release();
    other.release();
    expect(waiters.count).toBe(0);
  });

  test('when the event says the change is already stored, then the waiter is told to read at once; otherwise, and when released, not', async () => {
    const waiters = new PostWaiters(10);
    const stored = waiters.enter('p1')!;
    const heard = waiters.enter('p2')!;
    const released = waiters.enter('p3')!;
    waiters.wake('p1', { written: true });
    waiters.wake('p2');
    released.release();
    expect(await stored.woken).toEqual({ written: true });
    expect(await heard.woken).toEqual({ written: false });
    expect(await released.woken).toEqual({ written: false });
    stored.release();
    heard.release();
  });
});
