/**
 * /plate/* is the file server (icons, avatars, uploads) on the console's own origin. Whatever it
 * answers must never run as the console: every answer carries a sandboxing CSP and nosniff; only
 * image, audio and video types are served inline (as <img>, <audio> and <video> need them), and
 * anything else goes out as an `application/octet-stream` attachment, which a browser neither
 * renders as a page nor, with nosniff, runs as a script or style.
 */
export const PLATE_CONTENT_SECURITY_POLICY = "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'";

const INLINE_TYPES = /^(image|audio|video)\/[a-z0-9][a-z0-9.+-]*$/i;

/** The media type of a Content-Type value, lower-cased, without parameters; '' when absent. */
export function mediaType(value: unknown): string {
  const text = Array.isArray(value) ? String(value[0] ?? '') : typeof value === 'string' ? value : '';
  return (text.split(';')[0] ?? '').trim().toLowerCase();
}

export function isInlineFileType(value: unknown): boolean {
  return INLINE_TYPES.test(mediaType(value));
}

/** Rewrites the file server's answer headers in place and returns them. */
export function plateAnswerHeaders<H extends Record<string, unknown>>(headers: H): H {
  const out = headers as Record<string, unknown>;
  out['content-security-policy'] = PLATE_CONTENT_SECURITY_POLICY;
  out['x-content-type-options'] = 'nosniff';
  delete out['content-security-policy-report-only'];
  if (!isInlineFileType(out['content-type'])) {
    out['content-type'] = 'application/octet-stream';
    out['content-disposition'] = 'attachment';
  }
  return headers;
}
