/**
 * Files an administrator uploads (a logo, a tab icon, default avatars and emoji, an app package),
 * as the UI, the gateway and the sandbox backend all judge them: by the name's extension and by
 * the file's own first (and, for disk images, last) bytes, so a renamed file is told apart from
 * the type it claims. Pure: no Node or browser API, so the UI checks a file before sending it and
 * the gateway checks it again as it streams.
 */
import { Type, type Static } from '@sinclair/typebox';

export const UPLOAD_KINDS = ['image', 'package'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** What a field's upload fills besides the field itself: the file's size in bytes, its MD5. */
export interface FieldUpload {
  kind: UploadKind;
  sizeField?: string;
  md5Field?: string;
  /** Filled from a package's name (`chat-5.1.0.apk`: android), while still empty. */
  platformField?: string;
  /** Filled from a package's name (`chat-5.1.0.apk`: 5.1.0), while still empty. */
  versionField?: string;
}

/**
 * The upload a field takes: an image field always one, any other field when its definition says
 * so (an app's package link). The form offers a file where this answers one, and the gateway lets
 * an upload of a kind through only for holders of a screen with such a field.
 */
export function fieldUpload(field: { kind: string; upload?: FieldUpload }): FieldUpload | null {
  if (field.upload) return field.upload;
  return field.kind === 'image' ? { kind: 'image' } : null;
}

/** Bytes of the start of a file the checks read (an SVG may open with an XML declaration and comments). */
export const UPLOAD_HEAD_BYTES = 1024;
/** Bytes of the end of a file the checks read (a disk image's trailer). */
export const UPLOAD_TAIL_BYTES = 512;

export interface FileType {
  /** A short name, also the error's `detected` value. */
  id: string;
  kind: UploadKind;
  /** Lower-case, without the dot. */
  extensions: readonly string[];
  /** What the file is sent and served as. */
  mediaType: string;
  /** Whether the file's own bytes say it is this type; `tail` is empty until the whole file was read. */
  matches(head: Uint8Array, tail: Uint8Array): boolean;
  /** Only the end of the file can tell (a disk image): checked once the whole file has passed. */
  needsTail?: boolean;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Latin-1 reading of the bytes: enough to find markup, which is ASCII, whatever the encoding. */
function asText(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

/**
 * An SVG document: an optional byte-order mark, XML declaration, comments and doctype, then the
 * `<svg` element. A page, a script or plain text is not one, whatever its name says.
 */
const SVG_START =
  /^(\xEF\xBB\xBF)?\s*(<\?xml[^>]{0,200}\?>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]{0,400}>\s*)*<svg[\s>/]/i;

const ZIP = ascii('PK\x03\x04');

export const FILE_TYPES: readonly FileType[] = [
  {
    id: 'png',
    kind: 'image',
    extensions: ['png'],
    mediaType: 'image/png',
    matches: (h) => startsWith(h, [0x89, ...ascii('PNG\r\n\x1a\n')]),
  },
  {
    id: 'jpeg',
    kind: 'image',
    extensions: ['jpg', 'jpeg'],
    mediaType: 'image/jpeg',
    matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]),
  },
  {
    id: 'gif',
    kind: 'image',
    extensions: ['gif'],
    mediaType: 'image/gif',
    matches: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')),
  },
  {
    id: 'webp',
    kind: 'image',
    extensions: ['webp'],
    mediaType: 'image/webp',
    matches: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8),
  },
  // Reserved 0, type 1 (icon), at least one image.
  {
    id: 'ico',
    kind: 'image',
    extensions: ['ico'],
    mediaType: 'image/x-icon',
    matches: (h) => startsWith(h, [0, 0, 1, 0]) && h.length > 5 && h[4]! + h[5]! > 0,
  },
  {
    id: 'svg',
    kind: 'image',
    extensions: ['svg'],
    mediaType: 'image/svg+xml',
    matches: (h) => SVG_START.test(asText(h)),
  },
  // Android packages and bundles, iOS archives and plain archives are all ZIP files.
  {
    id: 'apk',
    kind: 'package',
    extensions: ['apk'],
    mediaType: 'application/vnd.android.package-archive',
    matches: (h) => startsWith(h, ZIP),
  },
  {
    id: 'aab',
    kind: 'package',
    extensions: ['aab'],
    mediaType: 'application/octet-stream',
    matches: (h) => startsWith(h, ZIP),
  },
  {
    id: 'ipa',
    kind: 'package',
    extensions: ['ipa'],
    mediaType: 'application/octet-stream',
    matches: (h) => startsWith(h, ZIP),
  },
  { id: 'zip', kind: 'package', extensions: ['zip'], mediaType: 'application/zip', matches: (h) => startsWith(h, ZIP) },
  {
    id: 'exe',
    kind: 'package',
    extensions: ['exe'],
    mediaType: 'application/vnd.microsoft.portable-executable',
    matches: (h) => startsWith(h, ascii('MZ')),
  },
  // Windows Installer files are OLE compound documents.
  {
    id: 'msi',
    kind: 'package',
    extensions: ['msi'],
    mediaType: 'application/x-msi',
    matches: (h) => startsWith(h, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
  },
  // macOS installer packages are xar archives.
  {
    id: 'pkg',
    kind: 'package',
    extensions: ['pkg'],
    mediaType: 'application/octet-stream',
    matches: (h) => startsWith(h, ascii('xar!')),
  },
  // A disk image (UDIF) has no signature at its start: its last 512 bytes are the `koly` trailer.
  {
    id: 'dmg',
    kind: 'package',
    extensions: ['dmg'],
    mediaType: 'application/x-apple-diskimage',
    needsTail: true,
    matches: (_h, t) => t.length === UPLOAD_TAIL_BYTES && startsWith(t, ascii('koly')),
  },
];

/** The extensions one kind takes, for an `accept` attribute and the error's `accepted`. */
export function uploadExtensions(kind: UploadKind): string[] {
  return FILE_TYPES.filter((t) => t.kind === kind).flatMap((t) => t.extensions);
}

export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The type a name claims for one kind of upload, or null when its extension is not taken. */
export function claimedFileType(name: string, kind: UploadKind): FileType | null {
  const extension = extensionOf(name);
  return FILE_TYPES.find((t) => t.kind === kind && t.extensions.includes(extension)) ?? null;
}

/** What the first bytes look like, whatever the name says: the first type they match, or null. */
export function detectedFileType(head: Uint8Array): FileType | null {
  return FILE_TYPES.find((t) => !t.needsTail && t.matches(head, new Uint8Array())) ?? null;
}

/**
 * Why a file cannot be taken:
 * - `extension`: its name's extension is not one of the kind's;
 * - `empty`: it has no bytes;
 * - `contents`: its bytes are not of the type its extension names (a renamed file; `detected`
 *   says what they look like, when anything known).
 */
export type UploadRefusal =
  { reason: 'extension' } | { reason: 'empty' } | { reason: 'contents'; detected: string | null };

/**
 * The checks that need only the file's start; a type that needs its end too is checked again by
 * `checkUploadTail` once the whole file has passed.
 */
export function checkUploadHead(kind: UploadKind, name: string, head: Uint8Array): { type: FileType } | UploadRefusal {
  const type = claimedFileType(name, kind);
  if (!type) return { reason: 'extension' };
  if (head.length === 0) return { reason: 'empty' };
  if (!type.needsTail && !type.matches(head, new Uint8Array()))
    return { reason: 'contents', detected: detectedFileType(head)?.id ?? null };
  return { type };
}

export function checkUploadTail(type: FileType, head: Uint8Array, tail: Uint8Array): UploadRefusal | null {
  if (!type.needsTail || type.matches(head, tail)) return null;
  return { reason: 'contents', detected: detectedFileType(head)?.id ?? null };
}

/** A file name as it may travel in a query string and a multipart header: no path, no control characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Quotes and control characters would break the part's header; keep the rest as the user wrote it.
  return [...base]
    .filter((c) => c >= ' ' && c !== '\u007f' && c !== '"')
    .join('')
    .trim()
    .slice(0, 200);
}

/** GET answer of the gateway's upload endpoint: what it takes. */
export const UploadLimitsSchema = Type.Object({
  /** The largest file of each kind, in bytes (UPLOAD_IMAGE_MAX_BYTES, UPLOAD_PACKAGE_MAX_BYTES). */
  maxBytes: Type.Object({ image: Type.Integer(), package: Type.Integer() }),
});
export type UploadLimits = Static<typeof UploadLimitsSchema>;

/** POST /api/upload?kind&name: the file's kind and its name as the administrator's disk had it. */
export const UploadQuerySchema = Type.Object(
  {
    kind: Type.Unsafe<UploadKind>({ type: 'string', enum: [...UPLOAD_KINDS] }),
    name: Type.String({ minLength: 1, maxLength: 255 }),
  },
  { additionalProperties: false },
);

/**
 * What an upload answers the browser: where the file server holds the file (`path`, under
 * `/plate/`), its public address when the backend gives one (`url`), and what the gateway
 * measured as the file passed (size in bytes, MD5 as lower-case hex, the type its bytes showed).
 */
export const UploadAnswerSchema = Type.Object({
  path: Type.String(),
  url: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  size: Type.Integer(),
  md5: Type.String(),
  contentType: Type.String(),
});
export type UploadAnswer = Static<typeof UploadAnswerSchema>;

/**
 * The backend's side (the contract call `upload`, POST /manage/upload): a multipart/form-data
 * body with the text parts `kind` and `name` and the file part `file`; it answers the stored
 * file's `path` under /plate/ (and, when it knows one, its public `url`).
 */
export interface BackendUploadAnswer {
  path: string;
  url?: string;
}
