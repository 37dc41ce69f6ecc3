import { execFile } from 'node:child_process';
import { appendFile, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditFileStore } from '../../server/audit/file-store.js';
import { GENESIS, canonical, entryHash, type AuditDraft } from '../../server/audit/chain.js';
import { verifyFile } from '../../server/audit/verify.js';
import { REPO_ROOT } from '../support/paths.js';
import { removeTempDirs, tempDir } from '../support/processes.js';

/**
 * The chain itself: entries linked by SHA-256 over their canonical text, in a JSON-lines file that
 * survives a torn write and a restart, loses its oldest entries to retention without breaking, and
 * that `npm run audit:verify` checks, naming the first entry a changed byte breaks.
 */

const run = promisify(execFile);

afterAll(() => removeTempDirs());

let n = 0;
function draft(overrides: Partial<AuditDraft> = {}): AuditDraft {
  n++;
  return {
    id: `id-${n}`,
    time: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    kind: 'change',
    actor: { userId: '1', account: 'admin' },
    requestId: `req-${n}`,
    ip: '127.0.0.1',
    method: 'POST',
    path: '/manage/user/userProfile/ban',
    resource: 'users',
    call: 'action',
    action: 'ban',
    targets: [String(100 + n)],
    reason: `reason ${n}: 名前 "quoted"`,
    outcome: { status: 200, code: 200 },
    ...overrides,
  };
}

async function filled(count: number): Promise<{ dir: string; store: AuditFileStore }> {
  const dir = tempDir('audit-chain-');
  const store = new AuditFileStore({ dir });
  await store.open();
  for (let i = 0; i < count; i++) await store.append(draft());
  return { dir, store };
}

async function verifyCli(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run('npm', ['run', '--silent', 'audit:verify', '--', dir], {
      cwd: REPO_ROOT,
      env: { ...process.env, REDIS_URL: '' },
    });
    return { code: 0, out: stdout.trim() };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: `${failed.stdout}${failed.stderr}`.trim() };
  }
}

describe('canonical text and hashes', () => {
  it('writes one text for one value, whatever the order of its keys', () => {
    expect(canonical({ b: 1, a: { d: [1, 'x'], c: null }, e: undefined })).toBe('{"a":{"c":null,"d":[1,"x"]},"b":1}');
    const entry = { ...draft(), seq: 1, prev: GENESIS };
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
    expect(entryHash(reordered)).toBe(entryHash(entry));
    expect(entryHash({ ...entry, reason: 'another' })).not.toBe(entryHash(entry));
  });
});

describe('the file store', () => {
  it('chains each entry to the one before, from the genesis, and pages newest first', async () => {
    const { dir, store } = await filled(30);
    const page = await store.query({ pageNum: 2, pageSize: 10 });
    expect(page.total).toBe(30);
    expect(page.list.map((e) => e.seq)).toEqual([20, 19, 18, 17, 16, 15, 14, 13, 12, 11]);
    const [first] = (await store.query({ pageNum: 3, pageSize: 10 })).list.slice(-1);
    expect(first).toMatchObject({ seq: 1, prev: GENESIS });
    expect(await verifyFile(dir)).toMatchObject({ intact: true, entries: 30 });
    await store.close();
  });

  it('goes on with the same chain after a restart, and removes a line a crash tore', async () => {
    const { dir, store } = await filled(5);
    await store.close();
    // A crash in the middle of the sixth write.
    await appendFile(path.join(dir, 'audit.jsonl'), '{"action":"ban","actor":{"acc');
    const again = new AuditFileStore({ dir });
    await again.open();
    const sixth = await again.append(draft());
    expect(sixth.seq).toBe(6);
    expect(await verifyFile(dir)).toMatchObject({ intact: true, entries: 6 });
    expect((await again.query({ pageNum: 1, pageSize: 50, targets: [sixth.targets[0]!] })).list).toEqual([sixth]);
    await again.close();
  });

  it(
    'removes entries past retention behind an anchor, and the chain still verifies',
    { timeout: 120_000 },
    async () => {
      const { dir, store } = await filled(40);
      const cut = Date.parse((await store.query({ pageNum: 1, pageSize: 1, beforeSeq: 26 })).list[0]!.time);
      // Entries 1..25 are older than the 26th's time.
      expect(await store.prune(cut + 1)).toBe(25);
      const anchor = store.anchorOf()!;
      expect(anchor.seq).toBe(25);
      expect((await store.query({ pageNum: 1, pageSize: 100 })).list.map((e) => e.seq)).toEqual(
        Array.from({ length: 15 }, (_, i) => 40 - i),
      );
      await store.append(draft());
      expect(await verifyFile(dir)).toMatchObject({
        intact: true,
        entries: 16,
        anchor: { seq: 25, hash: anchor.hash },
      });
      // And after a restart, from the anchor.
      await store.close();
      const again = new AuditFileStore({ dir });
      await again.open();
      expect((await again.append(draft())).seq).toBe(42);
      expect(await verifyFile(dir)).toMatchObject({ intact: true, entries: 17 });
      await again.close();
      const cli = await verifyCli(dir);
      expect(cli.code).toBe(0);
      expect(cli.out.split('\n')[0]).toBe('audit chain intact: 17 entries');
      expect(cli.out).toContain('starts after entry 25');
    },
  );
});

describe('npm run audit:verify', () => {
  it('fails with a clear line on a folder without the trail, or with an empty one', { timeout: 180_000 }, async () => {
    const dir = tempDir('audit-missing-');
    const missing = await verifyCli(path.join(dir, 'typo'));
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/^audit trail missing: .*typo.audit\.jsonl does not exist/);
    await writeFile(path.join(dir, 'audit.jsonl'), '');
    const empty = await verifyCli(dir);
    expect(empty.code).toBe(1);
    expect(empty.out).toMatch(/^audit trail empty: .*audit\.jsonl holds no entries/);
  });

  it('says the chain is intact, with the number of entries', { timeout: 180_000 }, async () => {
    const { dir, store } = await filled(12);
    const last = (await store.query({ pageNum: 1, pageSize: 1 })).list[0]!;
    await store.close();
    expect(await verifyCli(dir)).toEqual({
      code: 0,
      out: `audit chain intact: 12 entries\n  last entry 12: sha256 ${last.hash}`,
    });
  });

  it('fails on one changed byte, naming the first entry it breaks', { timeout: 180_000 }, async () => {
    const { dir, store } = await filled(12);
    await store.close();
    const file = path.join(dir, 'audit.jsonl');
    const original = await readFile(file);
    const lines = original.toString('utf8').split('\n');
    // One byte of the 7th entry's reason: "reason" -> "reasun".
    const offset =
      lines.slice(0, 6).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0) +
      Buffer.from(lines[6]!).indexOf('reason ') +
      4;
    const changed = Buffer.from(original);
    changed[offset] = 'u'.charCodeAt(0);
    await writeFile(file, changed);
    const broken = await verifyCli(dir);
    expect(broken.code).toBe(1);
    expect(broken.out).toMatch(
      /^audit chain broken at entry 7 \(line 7, id id-\d+\): the entry does not match its hash/,
    );

    // A byte the JSON parser would forgive (an escaped letter) is a change too.
    const escaped = Buffer.from(
      original.toString('utf8').replace(lines[2]!, lines[2]!.replace('"kind":"change"', '"kind":"\\u0063hange"')),
    );
    await writeFile(file, escaped);
    expect((await verifyCli(dir)).out).toMatch(
      /^audit chain broken at entry 3 .*not written as the recorder writes entries/,
    );

    // A removed entry breaks the link of the one after it.
    await writeFile(file, lines.filter((_, i) => i !== 4).join('\n'));
    expect((await verifyCli(dir)).out).toMatch(
      /^audit chain broken at entry 6 \(line 5.*does not link to the entry before it/,
    );
  });
});

describe('segments and the size cap', () => {
  /** A store sealing every ~4 KB: about 8 entries a segment. */
  async function segmented(count: number, maxBytes = 1_000_000) {
    const dir = tempDir('audit-segments-');
    const store = new AuditFileStore({ dir, segmentBytes: 4_000, maxBytes });
    await store.open();
    for (let i = 0; i < count; i++) await store.append(draft());
    return { dir, store };
  }

  const allSeqs = async (store: AuditFileStore) =>
    (await store.query({ pageNum: 1, pageSize: 1_000 })).list.map((entry) => entry.seq);

  it(
    'seals the file into segments linked by digest, reads across them, and verifies the whole chain',
    { timeout: 180_000 },
    async () => {
      const { dir, store } = await segmented(60);
      expect(store.sealed.length).toBeGreaterThanOrEqual(5);
      expect(store.sealed[0]).toBe('audit-000001.jsonl');
      expect(await allSeqs(store)).toEqual(Array.from({ length: 60 }, (_, i) => 60 - i));
      const first = (await readFile(path.join(dir, 'audit.jsonl'), 'utf8')).split('\n')[0]!;
      expect(JSON.parse(first)).toMatchObject({ segment: { prev: store.sealed.at(-1) } });
      expect(await verifyFile(dir)).toMatchObject({ intact: true, entries: 60 });
      await store.close();
      // A restart reads every segment into the index and goes on with the same chain.
      const again = new AuditFileStore({ dir, segmentBytes: 4_000, maxBytes: 1_000_000 });
      await again.open();
      expect(again.size).toBe(60);
      // An entry of the oldest segment, found by its record id and read from that segment.
      const oldest = (await again.query({ pageNum: 1, pageSize: 100 })).list.at(-3)!;
      expect((await again.query({ pageNum: 1, pageSize: 1, targets: oldest.targets })).list[0]).toEqual(oldest);
      expect((await again.append(draft())).seq).toBe(61);
      await again.close();
      const cli = await verifyCli(dir);
      expect(cli).toMatchObject({ code: 0 });
      expect(cli.out.split('\n')[0]).toBe('audit chain intact: 61 entries');
    },
  );

  it('notices a sealed segment that was deleted, or changed', { timeout: 180_000 }, async () => {
    const { dir, store } = await segmented(40);
    await store.close();
    const [first, second, third] = store.sealed;
    const secondPath = path.join(dir, second!);
    const original = await readFile(secondPath);
    await rm(secondPath);
    const deleted = await verifyCli(dir);
    expect(deleted.code).toBe(1);
    expect(deleted.out).toContain(`audit chain broken at ${third} line 1`);
    expect(deleted.out).toContain('missing and not recorded as removed');
    // Its newest entries cut off: each entry left is whole, but the digest carried forward differs.
    const lines = original.toString('utf8').trimEnd().split('\n');
    await writeFile(secondPath, `${lines.slice(0, -1).join('\n')}\n`);
    expect(await verifyFile(dir)).toMatchObject({
      intact: false,
      broken: { where: `${third} line 1`, reason: 'segment' },
    });
    // The oldest one gone without a record: the chain has nothing to start from.
    await writeFile(secondPath, original);
    await rm(path.join(dir, first!));
    expect(await verifyFile(dir)).toMatchObject({ intact: false, broken: { reason: 'missing' } });
  });

  it(
    'removes the oldest segments past AUDIT_MAX_BYTES, recording each, and the chain still verifies',
    { timeout: 180_000 },
    async () => {
      const { dir, store } = await segmented(120, 20_000);
      const names = await readdir(dir);
      const total = (
        await Promise.all(
          names.filter((name) => name !== 'audit-removed.jsonl').map((name) => stat(path.join(dir, name))),
        )
      ).reduce((sum, file) => sum + file.size, 0);
      expect(total).toBeLessThanOrEqual(20_000);
      expect(names).not.toContain('audit-000001.jsonl');
      const removed = (await readFile(path.join(dir, 'audit-removed.jsonl'), 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { file: string; reason: string; seq: number });
      expect(removed[0]).toMatchObject({ file: 'audit-000001.jsonl', reason: 'cap' });
      const seqs = await allSeqs(store);
      expect(seqs[0]).toBe(120);
      expect(seqs.at(-1)).toBe(removed.at(-1)!.seq + 1);
      expect(store.size).toBe(seqs.length);
      const verdict = await verifyFile(dir);
      expect(verdict).toMatchObject({ intact: true, entries: seqs.length, last: { seq: 120 } });
      await store.close();
    },
  );

  it('retention removes whole segments past it, recorded as retention', { timeout: 120_000 }, async () => {
    const { dir, store } = await segmented(40);
    const cut = Date.parse((await store.query({ pageNum: 1, pageSize: 1, beforeSeq: 21 })).list[0]!.time);
    const removed = await store.prune(cut + 1);
    expect(removed).toBeGreaterThan(0);
    expect(removed).toBeLessThanOrEqual(20);
    expect((await allSeqs(store)).at(-1)).toBe(removed + 1);
    expect(await readFile(path.join(dir, 'audit-removed.jsonl'), 'utf8')).toContain('"reason":"retention"');
    expect(await verifyFile(dir)).toMatchObject({ intact: true, entries: 40 - removed });
    await store.close();
  });
});
