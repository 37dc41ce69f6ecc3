/**
 * Addresses lose their credentials before they are written to the audit trail or a log: the user
 * info of `https://user:password@host/` and the query parameters that carry a credential (a
 * presigned S3 or GCS link's signature, a token, a key). Such an address still names where it
 * points; what let anyone fetch it stays out of a file that many read and that is kept for months.
 */

/** Query parameter names that carry credentials, compared without case. */
const SECRET_PARAM =
  /^(x-amz-(signature|credential|security-token)|x-goog-(signature|credential)|token|access_token|refresh_token|id_token|auth|authorization|signature|sig|password|passwd|pwd|pass|secret|client_secret|key|api_key|apikey|access_key|secret_key|session)$/i;

/** What stands in for a removed value. */
export const URL_SECRET_MARK = '[removed]';

const ABSOLUTE = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*@)?/i;

function paramName(pair: string): string {
  const eq = pair.indexOf('=');
  const raw = eq < 0 ? pair : pair.slice(0, eq);
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}

/** The address without user info and with each secret query parameter's value replaced. */
export function withoutUrlSecrets(url: string): string {
  let text = url.replace(ABSOLUTE, (_whole, scheme: string) => scheme);
  const q = text.indexOf('?');
  if (q < 0) return text;
  const hash = text.indexOf('#', q);
  const query = text.slice(q + 1, hash < 0 ? undefined : hash);
  const cleaned = query
    .split('&')
    .map((pair) =>
      SECRET_PARAM.test(paramName(pair)) && pair.includes('=')
        ? `${pair.slice(0, pair.indexOf('='))}=${URL_SECRET_MARK}`
        : pair,
    )
    .join('&');
  text = `${text.slice(0, q + 1)}${cleaned}${hash < 0 ? '' : text.slice(hash)}`;
  return text;
}

/** Whether a text is an address worth cleaning: absolute, or a path with a query. */
export function looksLikeUrl(text: string): boolean {
  return ABSOLUTE.test(text) || (text.startsWith('/') && text.includes('?'));
}
