import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  WithdrawalHub,
  type HubSubscriber,
  type PollOutcome,
  type PollShare,
} from '../../server/events/withdrawal-hub.js';
import { waitUntil } from '../support/wait.js';

interface FakeSession {
  id: string;
}

class Recorder implements HubSubscriber {
  counts: number[] = [];
  ended = 0;
  onCount(count: number): void {
    this.counts.push(count);
  }
  onEnded(): void {
    this.ended += 1;
  }
}

/** The parts under test run on periods of milliseconds: check every 5 ms, give up after 5 s. */
const waitFor = (condition: () => boolean, what: string) =>
  waitUntil(condition, what, { timeoutMs: 5_000, intervalMs: 5 });

/** A poll function whose answers the test scripts, recording every call per session. */
function scriptedPoll(answers: Array<PollOutcome | Error>) {
  const calls: string[] = [];
  let next = 0;
  const poll = async (session: FakeSession): Promise<PollOutcome> => {
    calls.push(session.id);
    const answer = answers[Math.min(next, answers.length - 1)];
    next += 1;
    if (answer === undefined) throw new Error('no scripted answer');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { poll, calls };
}

const count = (n: number): PollOutcome => ({ status: 'count', count: n });

const hubs: WithdrawalHub<FakeSession>[] = [];
function makeHub(options: ConstructorParameters<typeof WithdrawalHub<FakeSession>>[0]): WithdrawalHub<FakeSession> {
  const hub = new WithdrawalHub<FakeSession>(options);
  hubs.push(hub);
  return hub;
}

afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
  vi.useRealTimers();
});

/**
 * The hub's clock under the test's control: its period timers and its measure of how long a poll
 * took. Polls are then counted against the periods the test let pass, exactly.
 */
function controlClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
}

/** Lets `n` whole periods pass, each poll's answer (a resolved promise) settling on the way. */
async function periods(n: number, pollMs: number): Promise<void> {
  for (let i = 0; i < n; i++) await vi.advanceTimersByTimeAsync(pollMs);
}

describe('WithdrawalHub', () => {
  it('polls at once for a first tab and hands a later tab the last count without polling', async () => {
    const { poll, calls } = scriptedPoll([count(4)]);
    const hub = makeHub({ pollMs: 60_000, poll });
    const first = new Recorder();
    hub.subscribe('a', { id: 'a' }, first);
    expect(calls).toEqual(['a']);
    await waitFor(() => first.counts.length === 1, 'the first count');
    expect(first.counts).toEqual([4]);

    const second = new Recorder();
    hub.subscribe('a', { id: 'a' }, second);
    expect(second.counts).toEqual([4]);
    expect(calls).toEqual(['a']);
    expect(hub.lastCount('a')).toBe(4);
  });

  it('gives tabs that joined during the first poll the first answer', async () => {
    let release: (outcome: PollOutcome) => void = () => undefined;
    const calls: string[] = [];
    const hub = makeHub({
      pollMs: 60_000,
      poll: (session) => {
        calls.push(session.id);
        return new Promise<PollOutcome>((resolve) => {
          release = resolve;
        });
      },
    });
    const tabs = [new Recorder(), new Recorder(), new Recorder()];
    for (const tab of tabs) hub.subscribe('a', { id: 'a' }, tab);
    expect(calls).toEqual(['a']);
    expect(tabs.map((t) => t.counts)).toEqual([[], [], []]);
    release(count(2));
    await waitFor(() => tabs.every((t) => t.counts.length === 1), 'every tab to hear the count');
    expect(tabs.map((t) => t.counts)).toEqual([[2], [2], [2]]);
  });

  it('tells tabs only about changes', async () => {
    const { poll, calls } = scriptedPoll([count(1), count(1), count(1), count(3), count(3)]);
    const hub = makeHub({ pollMs: 10, poll });
    const tab = new Recorder();
    hub.subscribe('a', { id: 'a' }, tab);
    await waitFor(() => calls.length >= 6, 'six polls');
    expect(tab.counts).toEqual([1, 3]);
  });

  it('polls each session on its own, once per period however many tabs it has', async () => {
    controlClock();
    const { poll, calls } = scriptedPoll([count(0)]);
    const hub = makeHub({ pollMs: 20, poll });
    for (let i = 0; i < 5; i += 1) hub.subscribe('a', { id: 'a' }, new Recorder());
    hub.subscribe('b', { id: 'b' }, new Recorder());
    expect(hub.sessionCount).toBe(2);
    // One poll each at once, then one each per period: five tabs of a cost what one tab of b costs.
    expect(calls).toEqual(['a', 'b']);
    await periods(7, 20);
    expect(calls.filter((c) => c === 'a')).toHaveLength(8);
    expect(calls.filter((c) => c === 'b')).toHaveLength(8);
    // A period not yet over polls nothing.
    await vi.advanceTimersByTimeAsync(19);
    expect(calls).toHaveLength(16);
  });

  it('counts a period from the start of its poll, so a slow answer does not stretch it', async () => {
    controlClock();
    const calls: number[] = [];
    const hub = makeHub({
      pollMs: 100,
      // Each answer takes 30 ms of the hub's clock.
      poll: () => {
        calls.push(performance.now());
        return new Promise<PollOutcome>((resolve) => setTimeout(() => resolve(count(1)), 30));
      },
    });
    hub.subscribe('a', { id: 'a' }, new Recorder());
    await periods(5, 100);
    const start = calls[0]!;
    expect(calls.map((t) => t - start)).toEqual([0, 100, 200, 300, 400, 500]);
  });

  it('keeps the last count and keeps polling through failures, reporting each streak once', async () => {
    const failures: unknown[] = [];
    let recovered = 0;
    const { poll, calls } = scriptedPoll([
      count(5),
      new Error('down'),
      new Error('down'),
      new Error('down'),
      count(5),
      new Error('down again'),
      count(6),
    ]);
    const hub = makeHub({
      pollMs: 10,
      poll,
      onPollFailure: (error) => failures.push(error),
      onPollRecovered: () => {
        recovered += 1;
      },
    });
    const tab = new Recorder();
    hub.subscribe('a', { id: 'a' }, tab);
    await waitFor(() => tab.counts.includes(6), 'the count after the outages');
    expect(tab.counts).toEqual([5, 6]);
    expect(failures.map((f) => (f as Error).message)).toEqual(['down', 'down again']);
    expect(recovered).toBe(2);
    expect(calls.length).toBeGreaterThanOrEqual(7);
  });

  it('ends every tab and stops polling when the backend ends the session', async () => {
    controlClock();
    const ended: string[] = [];
    const { poll, calls } = scriptedPoll([count(1), { status: 'ended' }]);
    const hub = makeHub({ pollMs: 10, poll, onSessionEnded: (key) => ended.push(key) });
    const tabs = [new Recorder(), new Recorder()];
    for (const tab of tabs) hub.subscribe('a', { id: 'a' }, tab);
    await periods(1, 10);
    expect(ended).toEqual(['a']);
    expect(tabs.map((t) => t.ended)).toEqual([1, 1]);
    expect(hub.sessionCount).toBe(0);
    // Nothing is scheduled any more, and ten periods later nothing has been polled.
    expect(vi.getTimerCount()).toBe(0);
    await periods(10, 10);
    expect(calls).toEqual(['a', 'a']);
    // Unsubscribing after the end (the streams' close handlers) is harmless.
    for (const tab of tabs) hub.unsubscribe('a', tab);
    expect(ended).toEqual(['a']);
  });

  it('stops polling when the last tab leaves, and only then', async () => {
    controlClock();
    const { poll, calls } = scriptedPoll([count(1)]);
    const hub = makeHub({ pollMs: 10, poll });
    const one = new Recorder();
    const two = new Recorder();
    hub.subscribe('a', { id: 'a' }, one);
    hub.subscribe('a', { id: 'a' }, two);
    await periods(1, 10);
    expect(calls).toHaveLength(2);
    hub.unsubscribe('a', one);
    await periods(3, 10);
    expect(calls).toHaveLength(5);
    hub.unsubscribe('a', two);
    expect(hub.sessionCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await periods(10, 10);
    expect(calls).toHaveLength(5);
  });

  it('drops the answer of a poll still in flight when the last tab left', async () => {
    controlClock();
    let release: (outcome: PollOutcome) => void = () => undefined;
    const hub = makeHub({
      pollMs: 10,
      poll: () =>
        new Promise<PollOutcome>((resolve) => {
          release = resolve;
        }),
    });
    const tab = new Recorder();
    hub.subscribe('a', { id: 'a' }, tab);
    hub.unsubscribe('a', tab);
    release(count(9));
    // The answer settles; nothing is told and nothing scheduled.
    await vi.runAllTimersAsync();
    expect(tab.counts).toEqual([]);
    expect(hub.sessionCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('lets other tabs hear the count when one tab throws', async () => {
    const { poll } = scriptedPoll([count(7)]);
    const hub = makeHub({ pollMs: 60_000, poll });
    const broken: HubSubscriber = {
      onCount: () => {
        throw new Error('socket gone');
      },
      onEnded: () => undefined,
    };
    const tab = new Recorder();
    hub.subscribe('a', { id: 'a' }, broken);
    hub.subscribe('a', { id: 'a' }, tab);
    await waitFor(() => tab.counts.length === 1, 'the healthy tab to hear the count');
    expect(tab.counts).toEqual([7]);
  });

  it('stops every poll on close and refuses new tabs', async () => {
    controlClock();
    const { poll, calls } = scriptedPoll([count(1)]);
    const hub = makeHub({ pollMs: 10, poll });
    hub.subscribe('a', { id: 'a' }, new Recorder());
    hub.subscribe('b', { id: 'b' }, new Recorder());
    await periods(1, 10);
    expect(calls).toHaveLength(4);
    hub.close();
    expect(hub.sessionCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    await periods(10, 10);
    expect(calls).toHaveLength(4);
    expect(() => hub.subscribe('c', { id: 'c' }, new Recorder())).toThrow(/closed/);
  });

  describe('with polling shared among processes', () => {
    /** A share whose claims the test decides, recording what the hub publishes. */
    function scriptedShare(claims: Array<{ poll: true } | { poll: false; count: number | null }>) {
      const published: Array<[string, PollOutcome]> = [];
      let next = 0;
      const share: PollShare = {
        claim: async () => claims[Math.min(next++, claims.length - 1)]!,
        publish: (key, outcome) => void published.push([key, outcome]),
      };
      return { share, published };
    }

    it('polls the periods it claims and publishes what it heard', async () => {
      const { poll, calls } = scriptedPoll([count(6)]);
      const { share, published } = scriptedShare([{ poll: true }]);
      const hub = makeHub({ pollMs: 60_000, poll, share });
      const tab = new Recorder();
      hub.subscribe('a', { id: 'a' }, tab);
      await waitFor(() => tab.counts.length === 1, 'the count');
      expect(calls).toEqual(['a']);
      expect(published).toEqual([['a', count(6)]]);
    });

    it('skips the poll of a period another process claimed, taking its last count, and applies what it publishes', async () => {
      const { poll, calls } = scriptedPoll([count(1)]);
      const { share, published } = scriptedShare([{ poll: false, count: 5 }]);
      const hub = makeHub({ pollMs: 60_000, poll, share });
      const tab = new Recorder();
      hub.subscribe('a', { id: 'a' }, tab);
      await waitFor(() => tab.counts.length === 1, 'the count another process polled');
      expect(tab.counts).toEqual([5]);
      expect(calls).toEqual([]);
      expect(published).toEqual([]);

      hub.apply('a', count(8));
      expect(tab.counts).toEqual([5, 8]);
      // Another process's word that the session is over ends this process's tabs too.
      hub.apply('a', { status: 'ended' });
      expect(tab.ended).toBe(1);
      expect(hub.sessionCount).toBe(0);
      // An outcome for a session this process does not stream changes nothing.
      hub.apply('b', count(2));
      expect(hub.sessionCount).toBe(0);
    });

    it('keeps waiting, without a failure, when another process claimed the period and no count is known yet', async () => {
      const failures: unknown[] = [];
      const { poll, calls } = scriptedPoll([count(1)]);
      const { share } = scriptedShare([{ poll: false, count: null }, { poll: true }]);
      const hub = makeHub({ pollMs: 20, poll, share, onPollFailure: (error) => void failures.push(error) });
      const tab = new Recorder();
      hub.subscribe('a', { id: 'a' }, tab);
      await waitFor(() => tab.counts.length === 1, 'the next period, claimed and polled here');
      expect(calls).toEqual(['a']);
      expect(failures).toEqual([]);
    });
  });
});
