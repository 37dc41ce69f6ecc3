import { FILE_SERVER_PREFIX } from '#contract/calls';
import type { FieldDef, UploadAnswer, UploadKind } from '#contract';

/** Which fields take an upload, and what an upload puts in them. */

/** An image field always takes one; any other field when its definition says so (an app's package link). */
export function uploadOf(field: FieldDef): { kind: UploadKind; sizeField?: string; md5Field?: string } | null {
  if (field.upload) return field.upload;
  return field.kind === 'image' ? { kind: 'image' } : null;
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
