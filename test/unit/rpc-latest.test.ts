import { describe, expect, it } from 'vitest';
import { createLatest } from '../../src/main/rpc/latest';

describe('latest call of a key', () => {
  it('never runs a call that a newer one with the same key replaced before it started', async () => {
    const latest = createLatest();
    const ran: string[] = [];
    const call = (key: string | undefined, text: string) => latest.run(key, () => (ran.push(text), text));
    // Typed p, pa, pay while the core was busy: all three are waiting together.
    const answers = await Promise.allSettled([
      call('search', 'p'),
      call('search', 'pa'),
      call('facets', 'p'),
      call('search', 'pay'),
      call(undefined, 'other'),
    ]);
    expect(ran.sort()).toEqual(['other', 'p', 'pay']);
    expect(answers.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as { code: string }).code))).toEqual([
      'busy',
      'busy',
      'p',
      'pay',
      'other',
    ]);
    // One at a time, each runs.
    expect(await call('search', 'payr')).toBe('payr');
    expect(await call('search', 'payro')).toBe('payro');
    expect(ran).toContain('payro');
  });

  it('decides once the calls received in the meantime are known', async () => {
    let release!: () => void;
    const latest = createLatest(() => new Promise((resolve) => (release = resolve)));
    const ran: string[] = [];
    const first = latest.run('search', () => ran.push('a'));
    const firstRelease = release;
    const second = latest.run('search', () => ran.push('ab'));
    firstRelease();
    release();
    await expect(first).rejects.toMatchObject({ code: 'busy' });
    await second;
    expect(ran).toEqual(['ab']);
  });
});
