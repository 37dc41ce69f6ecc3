import { describe, expect, it } from 'vitest';
import { APP_VERSIONS, SITE_FUNCTIONS } from '../../server/contract/index.js';
import { UploadFailure, readUploadAnswer } from '../../web/api/upload.js';
import { precheckUpload } from '../../web/engine/form/upload-check.js';
import { draftFromRecord, fillEmpty } from '../../web/engine/form/form-values.js';
import { packageFacts, uploadOf, uploadedValue } from '../../web/engine/form/upload-fields.js';

const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])], {
  type: 'image/png',
});

describe('checking a file in the browser before it is sent', () => {
  it('refuses a file past the limit, a wrong extension and renamed contents, in that order', async () => {
    expect(await precheckUpload(png, 'logo.png', 'image', 8)).toEqual({ reason: 'tooLarge', maxBytes: 8 });
    expect(await precheckUpload(png, 'logo.bmp', 'image', null)).toEqual({ reason: 'extension' });
    expect(await precheckUpload(png, 'logo.gif', 'image', null)).toEqual({ reason: 'contents', detected: 'png' });
    expect(await precheckUpload(png, 'logo.png', 'image', 1024)).toMatchObject({
      type: { id: 'png', mediaType: 'image/png' },
    });
  });

  it('reads a disk image’s trailer from the end of the file', async () => {
    const trailer = new Uint8Array(512);
    trailer.set([0x6b, 0x6f, 0x6c, 0x79]);
    const dmg = new Blob([new Uint8Array(4096).fill(1), trailer]);
    expect(await precheckUpload(dmg, 'Chat.dmg', 'package', null)).toMatchObject({ type: { id: 'dmg' } });
    expect(await precheckUpload(new Blob([new Uint8Array(4096)]), 'Chat.dmg', 'package', null)).toMatchObject({
      reason: 'contents',
    });
  });
});

describe('the gateway’s answer to an upload', () => {
  it('is the stored file, or a failure with a reason the form can word', () => {
    const data = { path: 'uploads/a.png', url: null, name: 'a.png', size: 3, md5: 'x', contentType: 'image/png' };
    expect(readUploadAnswer(200, { code: 200, msg: 'ok', data })).toEqual(data);
    const failure = (status: number, body: object | null) => readUploadAnswer(status, body) as UploadFailure;
    expect(failure(413, { code: 413, error: 'UPLOAD_TOO_LARGE', msg: 'm', data: { maxBytes: 5 } })).toMatchObject({
      reason: 'tooLarge',
      detail: { maxBytes: 5 },
    });
    expect(
      failure(415, {
        code: 415,
        error: 'UPLOAD_TYPE_REFUSED',
        msg: 'm',
        data: { reason: 'contents', detected: 'jpeg' },
      }),
    ).toMatchObject({
      reason: 'contents',
      detail: { detected: 'jpeg' },
    });
    expect(
      failure(415, { code: 415, error: 'UPLOAD_TYPE_REFUSED', msg: 'm', data: { reason: 'extension' } }).reason,
    ).toBe('extension');
    expect(failure(404, { code: 404, error: 'UNSUPPORTED_BY_BACKEND', msg: 'm' }).reason).toBe('unsupported');
    expect(failure(401, { code: 401, error: 'NOT_LOGGED_IN', msg: 'm' }).reason).toBe('session');
    // The gateway's own refusals of issue 36: no screen that takes the kind, the day's quota used up.
    expect(failure(403, { code: 403, error: 'FORBIDDEN', msg: 'm', data: { kind: 'package' } }).reason).toBe(
      'forbidden',
    );
    expect(
      failure(429, { code: 429, error: 'UPLOAD_QUOTA_EXCEEDED', msg: 'm', data: { maxFiles: 200, maxBytes: 1024 } }),
    ).toMatchObject({ reason: 'quota', detail: { maxFiles: 200, maxBytes: 1024 } });
    expect(failure(502, { code: 502, error: 'UPSTREAM_UNREACHABLE', msg: 'm' }).reason).toBe('connection');
    expect(failure(200, null).reason).toBe('connection');
    // The backend's own refusal keeps its words.
    expect(failure(200, { code: 403, msg: 'No permission for this operation' })).toMatchObject({
      reason: 'refused',
      message: 'No permission for this operation',
    });
  });
});

describe('fields that take an upload', () => {
  it('are the image fields, and the package link that fills in its size', () => {
    const field = (resource: { fields: readonly { key: string }[] }, key: string) =>
      resource.fields.find((f) => f.key === key) as never;
    expect(uploadOf(field(SITE_FUNCTIONS, 'logoIconPath'))).toEqual({ kind: 'image' });
    expect(uploadOf(field(SITE_FUNCTIONS, 'chatRoomName'))).toBeNull();
    expect(uploadOf(field(APP_VERSIONS, 'downloadUrl'))).toEqual({
      kind: 'package',
      sizeField: 'packageSize',
      platformField: 'platform',
      versionField: 'version',
    });
    expect(uploadOf(field(APP_VERSIONS, 'mirrorUrl'))).toBeNull();
  });

  it('get a path, or for a link an address a phone can download from', () => {
    const answer = { path: 'uploads/packages/a.apk', url: null };
    expect(uploadedValue({ kind: 'image' }, answer)).toBe('uploads/packages/a.apk');
    expect(uploadedValue({ kind: 'link' }, answer, 'https://admin.example.com')).toBe(
      'https://admin.example.com/plate/uploads/packages/a.apk',
    );
    expect(uploadedValue({ kind: 'link' }, { ...answer, url: 'https://cdn.example.com/a.apk' })).toBe(
      'https://cdn.example.com/a.apk',
    );
  });
});

describe('what an app package tells the version form', () => {
  const fields = APP_VERSIONS.fields;

  it('reads the platform from the extension and the version from the name (chat-5.1.0.apk: android, 5.1.0)', () => {
    expect(packageFacts('chat-5.1.0.apk')).toEqual({ platform: 'android', version: '5.1.0' });
    expect(packageFacts('Nimbus_v2.10.3-beta.ipa')).toEqual({ platform: 'ios', version: '2.10.3' });
    expect(packageFacts('setup 3.2.exe')).toEqual({ platform: 'windows', version: '3.2' });
    expect(packageFacts('Nimbus.dmg')).toEqual({ platform: 'mac' });
    expect(packageFacts('chat-build7.zip')).toEqual({});
  });

  it("names the form's platform and version fields as the ones an upload fills", () => {
    const link = fields.find((f) => f.key === 'downloadUrl')!;
    expect(uploadOf(link)).toMatchObject({ platformField: 'platform', versionField: 'version' });
  });

  it('fills only what is still empty, and a platform only when it is one of the choices', () => {
    const empty = draftFromRecord(fields, undefined, 'en', () => Date.UTC(2030, 0, 2, 10));
    expect(fillEmpty(fields, empty, { platform: 'android', version: '5.1.0' })).toEqual({
      platform: 'android',
      version: '5.1.0',
    });
    // What the administrator typed stays.
    expect(fillEmpty(fields, { ...empty, version: '5.1.0-rc1' }, { platform: 'ios', version: '5.1.0' })).toEqual({
      platform: 'ios',
    });
    expect(fillEmpty(fields, empty, { platform: 'symbian', nothing: 'x' })).toEqual({});
  });

  it('starts a new version at the present moment to publish, and an edit at its own', () => {
    const now = Date.UTC(2030, 0, 2, 10, 30);
    const fresh = draftFromRecord(fields, undefined, 'en', () => now);
    expect(fresh.publishTime).not.toBe('');
    expect(new Date(fresh.publishTime as string).getTime()).toBe(Math.floor(now / 60_000) * 60_000);
    const edit = draftFromRecord(fields, { publishTime: '2024-05-01T08:00:00.000Z' }, 'en', () => now);
    expect(new Date(edit.publishTime as string).toISOString()).toBe('2024-05-01T08:00:00.000Z');
    expect(draftFromRecord(fields, {}, 'en', () => now).publishTime).toBe('');
  });
});
