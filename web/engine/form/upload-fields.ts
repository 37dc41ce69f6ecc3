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
