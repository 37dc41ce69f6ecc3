import { FILE_SERVER_PREFIX } from '#contract/calls';
import { fieldUpload, type FieldDef, type FieldUpload, type UploadAnswer } from '#contract';

/** Which fields take an upload, and what an upload puts in them. */

/** The contract's rule, which the gateway's upload permission is derived from too. */
export function uploadOf(field: FieldDef): FieldUpload | null {
  return fieldUpload(field);
}

/**
 * The field's value for a stored file: a path field gets the file server's path, as the site
 * configuration keeps its icons; a link gets an address a phone can download from: the backend's
 * public one when it gave one, else the console's own /plate/ address of the file.
 */
export function uploadedValue(
  field: Pick<FieldDef, 'kind'>,
  answer: Pick<UploadAnswer, 'path' | 'url'>,
  origin = globalThis.location?.origin ?? '',
): string {
  if (field.kind !== 'link') return answer.path;
  if (answer.url) return answer.url;
  if (/^https?:\/\//i.test(answer.path)) return answer.path;
  return `${origin}${FILE_SERVER_PREFIX}${answer.path.replace(/^\/+/, '')}`;
}

/** A package's platform by its extension, as the app versions' platforms are named. */
const PLATFORM_OF_EXTENSION: Readonly<Record<string, string>> = {
  apk: 'android',
  aab: 'android',
  ipa: 'ios',
  exe: 'windows',
  msi: 'windows',
  msix: 'windows',
  dmg: 'mac',
  pkg: 'mac',
};

/**
 * What a package's file name tells: its platform by the extension, its version as the dotted
 * numbers in the name (`chat-5.1.0.apk`: android, 5.1.0; `Nimbus_v2.10.3-beta.ipa`: ios, 2.10.3).
 */
export function packageFacts(name: string): { platform?: string; version?: string } {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const platform = PLATFORM_OF_EXTENSION[extension];
  const version = /(?:^|[^\d.])v?(\d+(?:\.\d+){1,3})(?![\d.]*\d)/i.exec(stem)?.[1];
  return { ...(platform ? { platform } : {}), ...(version ? { version } : {}) };
}
