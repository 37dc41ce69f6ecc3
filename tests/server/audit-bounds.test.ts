import { readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS } from '../../server/contract/index.js';
import type { AuditEntry } from '../../server/contract/audit.js';
import { GENESIS_HEAD, chain, entryLine, type AuditDraft, type ChainHead } from '../../server/audit/chain.js';
import { ENTRY_MAX_BYTES } from '../../server/audit/entry-bound.js';
import { AuditIndex, INDEX_TARGET_CHARS_MAX } from '../../server/audit/entry-index.js';
import { AuditFileStore } from '../../server/audit/file-store.js';
import { recordOf } from '../../server/audit/redact.js';
import { verifyFile } from '../../server/audit/verify.js';
import { withoutUrlSecrets } from '../../server/lib/url-secrets.js';
import { startSandbox, type StartedSandbox } from '../../sandbox/start.js';
import { removeTempDirs, tempDir } from '../support/processes.js';
import { auditGateway, call, fileText, logInAs, newest, type AuditGateway, type Cookies } from './support/audit-rig.js';

/**
 * Issue 36, points 1, 12 and 14: one call costs the trail a few KB at most, whatever it sends; the
 * index in memory is bounded per entry, also for a trail written before entries were bounded; no
 * credential of an address reaches the trail; a held change's `secret` flag stays a yes or no.
 */

let sandbox: StartedSandbox;
let gw: AuditGateway;
let admin: Cookies;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, withdrawalTickMs: 0 });
  gw = await auditGateway(sandbox);
  admin = await logInAs(gw.app, 'admin', 'admin123');
});

afterAll(async () => {
  await gw?.app.close();
  await sandbox?.close();
  removeTempDirs();
});

/** The stored line of the newest entry, as bytes. */
async function newestLineBytes(): Promise<number> {
  const lines = (await fileText(gw.dataDir)).trimEnd().split('\n');
  return Buffer.byteLength(lines.at(-1)!, 'utf8');
}

const longId = (i: number) => `${String(i).padStart(6, '0')}${'x'.repeat(122)}`;

describe('one entry has a hard size', () => {
  it('keeps a call naming 1,000 ids of 128 characters within 8 KB, saying how much was cut', async () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => longId(i));
    // The reason at the contract's own limit: a longer one is refused by the contract check before any entry.
    await call(gw.app, admin, 'POST', '/manage/user/userProfile/ban', { ids, reason: 'r'.repeat(200) });
    expect(await newestLineBytes()).toBeLessThanOrEqual(ENTRY_MAX_BYTES);
    const entry = await newest(gw.app, admin);
    expect(entry.action).toBe('ban');
    expect(entry.targets.length).toBeGreaterThan(0);
    expect(entry.targets.length).toBeLessThan(1_000);
    expect(entry.targets[0]!.startsWith('000000')).toBe(true);
    expect(entry.targets[0]!.endsWith('…')).toBe(true);
    expect(entry.cut?.targets).toBe(1_000 - entry.targets.length);
    expect(entry.cut?.targetChars).toBeGreaterThan(0);
    expect(entry.reason!.length).toBeLessThanOrEqual(1_000);
  });

  it('cuts a path of 12,000 characters with a marker', async () => {
    await call(gw.app, admin, 'POST', `/manage/${'p'.repeat(12_000)}`, {});
    expect(await newestLineBytes()).toBeLessThanOrEqual(ENTRY_MAX_BYTES);
    const entry = await newest(gw.app, admin);
    expect(entry.path!.length).toBeLessThanOrEqual(512);
    expect(entry.path!.endsWith('…')).toBe(true);
    expect(entry.cut?.path).toBe(12_008 - 511);
  });

  it('gives up the largest values of an edit before the ids, and still fits', async () => {
    const huge = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    await call(gw.app, admin, 'POST', '/manage/user/userProfile/ban', { id: 1, ...huge });
    expect(await newestLineBytes()).toBeLessThanOrEqual(ENTRY_MAX_BYTES);
    const entry = await newest(gw.app, admin);
    expect(entry.targets).toEqual(['1']);
    expect(entry.inputs).toEqual({});
    expect(entry.cut?.inputs).toBeGreaterThan(40_000);
  });
});

describe('the trail as a whole, through the gateway', () => {
  it('seals at AUDIT_SEGMENT_BYTES and stays within AUDIT_MAX_BYTES under a flood of large calls', async () => {
    const capped = await auditGateway(sandbox, { AUDIT_SEGMENT_BYTES: '65536', AUDIT_MAX_BYTES: '262144' });
    try {
      const cookies = await logInAs(capped.app, 'admin', 'admin123');
      const ids = Array.from({ length: 1_000 }, (_, i) => longId(i));
      for (let i = 0; i < 80; i++) await call(capped.app, cookies, 'POST', '/manage/user/userProfile/ban', { ids });
      const names = await readdir(capped.dataDir);
      expect(names).toContain('audit-removed.jsonl');
      const sizes = await Promise.all(
        names.filter((name) => name !== 'audit-removed.jsonl').map((name) => stat(path.join(capped.dataDir, name))),
      );
      expect(sizes.reduce((sum, file) => sum + file.size, 0)).toBeLessThanOrEqual(262_144);
      // 80 calls of 128 KB each would be 10 MB; each entry is at most 8 KB.
      expect(Math.max(...sizes.map((file) => file.size))).toBeLessThan(65_536 + ENTRY_MAX_BYTES);
      expect(await verifyFile(capped.dataDir)).toMatchObject({ intact: true, last: { seq: 81 } });
    } finally {
      await capped.app.close();
    }
  });
});

describe('the index in memory and the start', () => {
  const big = (i: number): AuditDraft => ({
    id: `big-${i}`,
    time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    kind: 'change',
    actor: { userId: '1', account: 'admin' },
    requestId: null,
    ip: null,
    method: 'POST',
    path: '/manage/user/userProfile/ban',
    resource: 'users',
    call: 'action',
    action: 'ban',
    targets: Array.from({ length: 1_000 }, (_, j) => longId(j + i)),
    reason: null,
    outcome: { status: 200, code: 200 },
  });

  it('holds a bounded number of ids per entry, whatever the entry holds', () => {
    const index = new AuditIndex();
    const entry = chain(big(0), GENESIS_HEAD);
    index.add(entry, { a: 0, b: 1 });
    expect(index.targetChars).toBeLessThanOrEqual(INDEX_TARGET_CHARS_MAX);
    expect(index.find({ pageNum: 1, pageSize: 10, targets: [longId(0)] }).total).toBe(1);
  });

  it('reopens a trail of unbounded entries (written before the bound) with the index bounded', async () => {
    const dir = tempDir('audit-big-');
    let head: ChainHead = GENESIS_HEAD;
    let text = '';
    const count = 200;
    for (let i = 0; i < count; i++) {
      const entry: AuditEntry = chain(big(i), head);
      head = { seq: entry.seq, hash: entry.hash };
      text += `${entryLine(entry)}\n`;
    }
    // 200 entries of about 130 KB: 26 MB on disk.
    expect(text.length).toBeGreaterThan(count * 128_000);
    await writeFile(path.join(dir, 'audit.jsonl'), text);
    const store = new AuditFileStore({ dir });
    await store.open();
    expect(store.size).toBe(count);
    expect(store.indexedTargetChars).toBeLessThanOrEqual(count * INDEX_TARGET_CHARS_MAX);
    expect((await store.query({ pageNum: 1, pageSize: 5, targets: [longId(150)] })).total).toBeGreaterThan(0);
    expect((await store.append({ ...big(999), targets: ['1'] })).seq).toBe(count + 1);
    await store.close();
  });
});

describe('no credential of an address reaches the trail', () => {
  it('strips user info and secret query parameters from an import address', async () => {
    const url =
      'https://u:Pw0rdSecret@h.example/x.sql?X-Amz-Signature=abcdef0123&X-Amz-Credential=AKIAEXAMPLE&token=tok123&part=1';
    await call(gw.app, admin, 'POST', CALLS.importDatabase, { url });
    const entry = await newest(gw.app, admin);
    const line = JSON.stringify(entry);
    expect(line).toContain('h.example/x.sql');
    expect(line).toContain('part=1');
    for (const secret of ['Pw0rdSecret', 'abcdef0123', 'AKIAEXAMPLE', 'tok123', 'u:'])
      expect(line).not.toContain(secret);
    expect(await fileText(gw.dataDir)).not.toContain('Pw0rdSecret');
  });

  it('keeps the rest of an address as it was', () => {
    expect(withoutUrlSecrets('https://user@h/p?a=1&sig=x&Key=y#frag')).toBe(
      'https://h/p?a=1&sig=[removed]&Key=[removed]#frag',
    );
    expect(withoutUrlSecrets('/manage/x?access_token=t&q=%20')).toBe('/manage/x?access_token=[removed]&q=%20');
    expect(withoutUrlSecrets('https://h/p')).toBe('https://h/p');
  });
});

describe("a held change's secret flag", () => {
  it('stays a yes or no: the redaction matches values, not a flag named like a secret', () => {
    const detail = recordOf({
      changes: [
        { key: 'signName', before: 'a', after: 'b', secret: false },
        { key: 'accessSecret', before: null, after: null, secret: true },
      ],
      accessSecret: 'shh',
    });
    expect(detail.changes).toEqual([
      { key: 'signName', before: 'a', after: 'b', secret: false },
      { key: 'accessSecret', before: null, after: null, secret: true },
    ]);
    expect(detail.accessSecret).toBe('[changed]');
  });
});
