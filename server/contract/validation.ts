import type { FieldDef } from './resource.js';
import { graphemeCount } from './text-length.js';

/** Validation outcomes shared by the UI (translated messages) and the sandbox backend (Chinese msg). */
export type ValidationCode =
  | 'required'
  | 'linkFormat'
  | 'linkTooLong'
  | 'downloadLinkEmpty'
  | 'tooLong'
  | 'notNumber'
  | 'notInteger'
  | 'tooSmall'
  | 'tooLarge'
  | 'notAnOption'
  | 'ipFormat'
  | 'dateFormat'
  | 'moneyDecimals'
  | 'accountFormat'
  | 'passwordWeak'
  | 'tooManyDecimals'
  | 'exceedsField';

/** The backend's own wording, shown as is in Chinese. */
export const VALIDATION_MESSAGES_ZH: Record<ValidationCode, string> = {
  linkFormat: '链接格式错误',
  linkTooLong: '链接过长',
  downloadLinkEmpty: '下载链接不能为空',
  required: '此项不能为空',
  tooLong: '内容过长',
  notNumber: '请输入数字',
  notInteger: '请输入整数',
  tooSmall: '数值过小',
  tooLarge: '数值过大',
  notAnOption: '选项无效',
  ipFormat: 'IP 格式错误',
  dateFormat: '日期格式错误',
  moneyDecimals: '金额最多两位小数',
  accountFormat: '账号须为 3-32 位小写字母、数字或 _ . -',
  passwordWeak: '密码至少 10 位，且须同时包含字母和数字',
  tooManyDecimals: '小数位数过多',
  exceedsField: '数值不能大于关联项',
};

/** Administrator accounts: 3 to 32 of a-z, 0-9, underscore, dot and hyphen (they end up in logs and URLs). */
export const ACCOUNT_PATTERN = /^[a-z0-9_.-]{3,32}$/;
export const PASSWORD_MIN_LENGTH = 10;

/** At least PASSWORD_MIN_LENGTH characters with a letter and a digit among them. */
export function isStrongPassword(value: string): boolean {
  return value.length >= PASSWORD_MIN_LENGTH && /\p{L}/u.test(value) && /\d/.test(value);
}

/** What a link field accepts: pages and downloads, never ftp:, file: or javascript: addresses. */
export const WEB_SCHEMES = ['http', 'https'] as const;
/** The chat's real-time address. */
export const SOCKET_SCHEMES = ['ws', 'wss'] as const;

/**
 * The longest link a link field takes: what browsers and proxies reliably carry in an address
 * (a CDN's signed download link fits well within it); anything longer is pasted by mistake and,
 * shown in a table or the audit trail, only pushes the page wider.
 */
export const LINK_MAX_LENGTH = 2048;

/** A link: one of `schemes` followed by ://, then a host and whatever follows, without spaces. */
export function isLink(value: string, schemes: readonly string[] = WEB_SCHEMES): boolean {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/[^\s/?#]\S*$/.exec(value);
  return m !== null && schemes.includes(m[1]!.toLowerCase());
}

function isIPv4(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts.every((p) => /^(0|[1-9]\d{0,2})$/.test(p) && Number(p) <= 255);
}

function isIPv6(text: string): boolean {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.includes(':::')) return false;
  let body = text;
  const groupsNeeded = 8;
  const lastColon = body.lastIndexOf(':');
  const tail = body.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIPv4(tail)) return false;
    body = body.slice(0, lastColon + 1) + '0:0';
  }
  const halves = body.split('::');
  if (halves.length > 2) return false;
  const groups = (half: string) => (half === '' ? [] : half.split(':'));
  const all = halves.flatMap(groups);
  if (!all.every((g) => /^[0-9A-Fa-f]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? all.length < groupsNeeded : all.length === groupsNeeded;
}

/** IPv4 or IPv6, optionally with a CIDR prefix length. */
export function isIpOrCidr(value: string): boolean {
  const [address, prefix, extra] = value.trim().split('/');
  if (extra !== undefined || !address) return false;
  const v4 = isIPv4(address);
  if (!v4 && !isIPv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

/** Nothing, or only white space: a required field of three spaces is as empty as one left blank. */
export function isBlankValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** Digits after the decimal point of a number as written (1.5 -> 1; 1e-7 counts its 7). */
function decimalsOf(n: number): number {
  const [digits, exponent] = String(n).split('e');
  const fraction = digits!.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent ?? 0));
}

/** One field's value; null when it is acceptable. */
export function validateField(field: FieldDef, value: unknown): ValidationCode | null {
  if (isBlankValue(value)) {
    if (!field.required || field.kind === 'switch') return null;
    return field.kind === 'link' && field.download ? 'downloadLinkEmpty' : 'required';
  }
  switch (field.kind) {
    case 'switch':
      return typeof value === 'boolean' ? null : 'notAnOption';
    case 'link':
      if (typeof value !== 'string') return 'linkFormat';
      if (value.trim().length > LINK_MAX_LENGTH) return 'linkTooLong';
      return isLink(value.trim()) ? null : 'linkFormat';
    case 'ip':
      return typeof value === 'string' && isIpOrCidr(value) ? null : 'ipFormat';
    case 'number':
    case 'bytes':
    case 'money': {
      const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return 'notNumber';
      if (field.kind !== 'number' && !Number.isInteger(n)) return 'notInteger';
      if (field.decimals !== undefined && decimalsOf(n) > field.decimals) return 'tooManyDecimals';
      if (field.min !== undefined && n < field.min) return 'tooSmall';
      if (field.max !== undefined && n > field.max) return 'tooLarge';
      return null;
    }
    case 'select':
      return field.options && !field.options.includes(String(value)) ? 'notAnOption' : null;
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? null : 'dateFormat';
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? null : 'dateFormat';
    case 'lines':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'required';
    default:
      if (typeof value !== 'string') return 'required';
      if (field.maxLength !== undefined && graphemeCount(value) > field.maxLength) return 'tooLong';
      if (field.policy === 'account' && !ACCOUNT_PATTERN.test(value)) return 'accountFormat';
      if (field.policy === 'password' && !isStrongPassword(value)) return 'passwordWeak';
      return null;
  }
}

/** Every field of a form; an empty object when all are acceptable. */
export function validateRecord(
  fields: readonly FieldDef[],
  record: Record<string, unknown>,
): Record<string, ValidationCode> {
  const errors: Record<string, ValidationCode> = {};
  for (const field of fields) {
    const code = validateField(field, record[field.key]);
    if (code) errors[field.key] = code;
  }
  return errors;
}
