/**
 * The content folder's lock: one run at a time, across processes. Several processes each add one
 * to a counter file many times under the lock, reading and writing it in separate steps; a lock
 * that two runs hold at once loses an increment. A run that finds another's lock mid-creation
 * must wait, not take it over as a half-written (stale) one.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { takeLock, withLock, LockBusyError } from '../../src/cli/lock.ts';

const scratch = mkdtempSync(join(tmpdir(), 'tagsite-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const lockModule = fileURLToPath(new URL('../../src/cli/lock.ts', import.meta.url));

/** A process that adds one to `counter` `times` times, each under the lock with a pause between read and write. */
function incrementer(counter: string, lock: string, times: number, pauseMs = 2): Promise<number> {
  const script = `
    import { readFileSync, writeFileSync } from 'node:fs';
    import { withLock } from ${JSON.stringify(lockModule)};
    for (let i = 0; i < ${times}; i += 1) {
      await withLock(${JSON.stringify(lock)}, async () => {
        const value = Number(readFileSync(${JSON.stringify(counter)}, 'utf8'));
        await new Promise((resolve) => setTimeout(resolve, ${pauseMs}));
        writeFileSync(${JSON.stringify(counter)}, String(value + 1));
      }, { waitMs: 60_000 });
    }`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--experimental-strip-types', '--no-warnings', '--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

describe('withLock', () => {
  it('lets one process at a time in: 6 processes × 25 increments lose none', async () => {
    const counter = join(scratch, 'counter');
    const lock = join(scratch, 'counter.lock');
    writeFileSync(counter, '0');
    const codes = await Promise.all(Array.from({ length: 6 }, () => incrementer(counter, lock, 25)));
    expect(codes).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Number(readFileSync(counter, 'utf8'))).toBe(150);
    // Nothing of the lock is left behind: neither the lock nor a run's own file.
    expect(readdirSync(scratch).filter((name) => name.startsWith('counter.lock'))).toEqual([]);
  }, 120_000);

  it('is never seen half-written: a reader polling the lock file finds it missing or whole', async () => {
    const counter = join(scratch, 'watched');
    const lock = join(scratch, 'watched.lock');
    writeFileSync(counter, '0');
    const reader = `
      import { readFileSync, existsSync } from 'node:fs';
      let partial = 0;
      const until = Date.now() + 60_000;
      while (Date.now() < until && !existsSync(${JSON.stringify(counter + '.done')})) {
        try {
          const text = readFileSync(${JSON.stringify(lock)}, 'utf8');
          try { JSON.parse(text); } catch { partial += 1; }
        } catch {}
      }
      process.stdout.write(String(partial));`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', reader], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    const codes = await Promise.all(Array.from({ length: 4 }, () => incrementer(counter, lock, 100, 0)));
    writeFileSync(counter + '.done', '');
    await exited;
    expect(codes).toEqual([0, 0, 0, 0]);
    expect(Number(readFileSync(counter, 'utf8'))).toBe(400);
    expect(out).toBe('0');
  }, 120_000);

  it('waits for a live holder and gives up with LockBusyError after waitMs', async () => {
    const lock = join(scratch, 'held.lock');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, since: Date.now() }));
    await expect(withLock(lock, () => 'ran', { waitMs: 200 })).rejects.toBeInstanceOf(LockBusyError);
    expect(existsSync(lock)).toBe(true);
    rmSync(lock);
  });

  it('takes over a lock whose process is gone, or that is garbage, and removes it afterwards', async () => {
    const lock = join(scratch, 'stale.lock');
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, since: Date.now() }));
    expect(await withLock(lock, () => 'ran', { waitMs: 200 })).toBe('ran');
    writeFileSync(lock, '{"pid": 1');
    expect(await withLock(lock, () => 'ran again', { waitMs: 200 })).toBe('ran again');
    expect(existsSync(lock)).toBe(false);
  });

  it('removes the lock when the work throws', async () => {
    const lock = join(scratch, 'throws.lock');
    await expect(withLock(lock, () => { throw new Error('boom'); })).rejects.toThrow('boom');
    expect(existsSync(lock)).toBe(false);
  });
});

describe('takeLock', () => {
  it('holds the lock across calls until its release is called', async () => {
    const lock = join(scratch, 'held-across.lock');
    const release = await takeLock(lock);
    expect(existsSync(lock)).toBe(true);
    await expect(takeLock(lock, { waitMs: 150 })).rejects.toBeInstanceOf(LockBusyError);
    release();
    expect(existsSync(lock)).toBe(false);
    const again = await takeLock(lock, { waitMs: 150 });
    again();
  });
});
