import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { BackendMapError, loadBackendMap } from './backend-map/load.js';
import type { BackendMapFile } from './backend-map/types.js';
import { configuredServices } from './backend-map/services.js';
import { PERMISSIONS } from './contract/permissions.js';
import { SANDBOX_DIALECTS, type SandboxDialect } from './contract/gateway.js';
import { loadDualControl, type DualControlConfig } from './approvals/config.js';

/** Typed, validated configuration from the environment; every variable is in the table of docs/operators.md. */
export interface Config {
  port: number;
  host: string;
  /** Base URL of the chat backend; null means "start the sandbox backend in-process". */
  chatBackendUrl: string | null;
  fileServerUrl: string | null;
  /** The chat's web client, linked as "Web version"; null: derived from the console's own address. */
  webClientUrl: string | null;
  /** ISO 4217 code of the wallet's money, which the backend's amounts never name. */
  currency: string;
  aes: {
    /** Raw key bytes (16, 24 or 32), or null when no key is configured (encoded bodies then fail to decode). */
    key: Buffer | null;
    iv: Buffer;
    mode: 'cbc' | 'ecb';
  };
  upstreamTimeoutMs: number;
  withdrawalCountPath: string;
  withdrawalPollMs: number;
  dataDir: string;
  cookieSecure: 'auto' | boolean;
  trustProxy: boolean | string | number;
  logLevel: string;
  /** Decoded-body cap, bytes. */
  decodeMaxBytes: number;
  /** Largest request body the gateway accepts, bytes (uploads have their own limits below). */
  bodyLimitBytes: number;
  /** Largest image (logo, icon, avatar, emoji) one upload may stream to the file server, bytes. */
  uploadImageMaxBytes: number;
  /** Largest app package one upload may stream to the file server, bytes. */
  uploadPackageMaxBytes: number;
  /** Files one account may upload per UTC day; one more answers 429 UPLOAD_QUOTA_EXCEEDED. */
  uploadDailyMaxFiles: number;
  /** Bytes one account may upload per UTC day, all files together. */
  uploadDailyMaxBytes: number;
  /** Saved list views one administrator may keep over every list together. */
  savedViewsMaxPerAdmin: number;
  /** How long shutdown waits for in-flight calls before giving up. */
  shutdownTimeoutMs: number;
  /** Opt-out of TLS verification of an HTTPS backend, for test rigs only. */
  upstreamTlsInsecure: boolean;
  /** Where the built UI lives. */
  uiDir: string;
  /** Gateway processes: 1 = one process (the default); more = a node:cluster primary and that many workers. */
  workers: number;
  /** A request's headers and body must arrive within this, else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** Open sockets one gateway process accepts; more are closed at once. */
  maxConnections: number;
  /** Open sockets one client address may hold in one gateway process; more are closed at once. */
  maxConnectionsPerIp: number;
  /** How long a kept-alive socket may sit idle between requests before the gateway closes it. */
  keepAliveTimeoutMs: number;
  /** A session with no call for this long is refused. */
  sessionIdleMinutes: number;
  /** A session is refused this long after its login, whatever its use. */
  sessionMaxHours: number;
  /** Key material the session cookie is sealed under (at least 32 bytes). */
  sessionSecret: Buffer;
  /** True when SESSION_SECRET was unset and a random one was made at start (replicas cannot share it). */
  sessionSecretGenerated: boolean;
  /** Backend call made with the session's token at logout; null when the backend has none. */
  backendLogoutPath: string | null;
  /** Failed logins per account and client address within the throttle window before 429. */
  loginMaxFailures: number;
  /** Open event streams per session; the next is refused with 429. */
  eventsMaxPerSession: number;
  /** Open event streams per account (backend user id), whatever its sessions; the next is refused with 429. */
  eventsMaxPerAccount: number;
  /** Open event streams in one gateway process, all sessions together; the next is refused with 429. */
  eventsMaxTotal: number;
  /** Calls of one session that may wait on the backend at once; the next is refused with 429. */
  maxInflightPerSession: number;
  /** Strict-Transport-Security max-age on answers to HTTPS requests; 0 sends none. */
  hstsMaxAge: number;
  /** Serve /metrics on this port instead of the main one; null keeps it on the main port. */
  metricsPort: number | null;
  /** Bearer token /metrics requires; null = none. */
  metricsToken: string | null;
  /** Redis shared by replicas and workers (redis:// or rediss://); null keeps everything in this process. */
  redisUrl: string | null;
  /** Entries the shared error log (a Redis stream) keeps; older ones are trimmed. */
  errorLogMaxEntries: number;
  /**
   * The backend map of BACKEND_MAP, validated; null keeps the console's own contract. `services`:
   * the base URL of each of its services, from the variable the map names; null where unset (the
   * sandbox's service of that name, else CHAT_BACKEND_URL).
   */
  backendMap: { file: string; map: BackendMapFile; services: Record<string, string | null> } | null;
  /** How the sandbox backend speaks: the console's contract, or a typical Java admin backend's. */
  sandboxDialect: SandboxDialect;
  /** Host names (each with or without a port) the console answers for; null answers any. */
  allowedHosts: AllowedHost[] | null;
  /** Logged-out sessions remembered one by one; past it the oldest are ended wholesale. */
  revocationsMax: number;
  /** Who may read and clear every administrator's UI errors (and the anonymous ones). */
  errorLogAdminPermission: string;
  /** Days the audit trail keeps an entry; older ones are removed, an anchor keeping the chain whole. */
  auditRetentionDays: number;
  /** Bytes the audit file holds before it is sealed into a segment and a new one started. */
  auditSegmentBytes: number;
  /** Bytes the audit trail holds in all (segments and the file written now); past it the oldest segments go. */
  auditMaxBytes: number;
  /** Two-person approval of withdrawals and settings saves (server/approvals). */
  dualControl: DualControlConfig;
}

/** One ALLOWED_HOSTS entry: a host name or address, lower case, and a port when it names one. */
export interface AllowedHost {
  hostname: string;
  port: string | null;
}

export { SANDBOX_DIALECTS, type SandboxDialect } from './contract/gateway.js';

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    reason: string,
  ) {
    super(`${variable}: ${reason}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** An ISO 4217 currency code (CNY, EUR, USD…), upper-cased. */
function currencyCode(env: Env, name: string, fallback: string): string {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  const code = raw.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code))
    throw new ConfigError(name, `must be a three-letter ISO 4217 currency code such as CNY or EUR, got "${raw}"`);
  return code;
}

function httpUrl(env: Env, name: string): string | null {
  const raw = text(env, name);
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL, got "${raw}"`);
  }
  if (url.search || url.hash) throw new ConfigError(name, 'must not carry a query or fragment');
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** Key text: plain UTF-8, or `base64:` followed by base64 of the raw bytes. */
export function parseKeyText(name: string, raw: string, allowed: readonly number[]): Buffer {
  let bytes: Buffer;
  if (raw.startsWith('base64:')) {
    const b64 = raw.slice('base64:'.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
      throw new ConfigError(name, 'the text after "base64:" is not valid base64');
    }
    bytes = Buffer.from(b64, 'base64');
  } else {
    bytes = Buffer.from(raw, 'utf8');
  }
  if (!allowed.includes(bytes.length)) {
    throw new ConfigError(name, `must be ${allowed.join(', ')} bytes long, got ${bytes.length}`);
  }
  return bytes;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function trustProxy(env: Env): boolean | string | number {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined) return false;
  if (/^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
  if (/^\d+$/.test(raw)) return Number(raw); // hop count
  const parts = raw.split(',').map((s) => s.trim());
  for (const part of parts) {
    const [address, prefix] = part.split('/');
    const bits = isIP(address ?? '') === 6 ? 128 : 32;
    if (
      !address ||
      isIP(address) === 0 ||
      (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits))
    ) {
      throw new ConfigError('TRUST_PROXY', `must be true, false, a hop count or addresses/CIDRs, got "${raw}"`);
    }
  }
  return raw;
}

export const MAX_WORKERS = 64;

/** WORKERS: a count from 1 to 64, or `auto` for one per core the process may use. */
function workers(env: Env): number {
  const raw = text(env, 'WORKERS');
  if (raw === undefined) return 1;
  if (raw.toLowerCase() === 'auto') return Math.min(MAX_WORKERS, Math.max(1, availableParallelism()));
  const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= 1 && value <= MAX_WORKERS)) {
    throw new ConfigError('WORKERS', `must be auto or a whole number from 1 to ${MAX_WORKERS}, got "${raw}"`);
  }
  return value;
}

/** A backend path setting: one leading "/", no scheme or host. */
function backendPath(env: Env, name: string, fallback: string): string;
function backendPath(env: Env, name: string, fallback: null): string | null;
function backendPath(env: Env, name: string, fallback: string | null): string | null {
  const value = text(env, name) ?? fallback;
  if (value === null) return null;
  if (!value.startsWith('/') || value.startsWith('//') || /[\s\\#]/.test(value)) {
    throw new ConfigError(name, `must be a path starting with one "/", got "${value}"`);
  }
  return value;
}

/** SESSION_SECRET: text or `base64:` bytes, at least 32 bytes; a random one when unset. */
function sessionSecret(env: Env): { secret: Buffer; generated: boolean } {
  const raw = text(env, 'SESSION_SECRET');
  if (raw === undefined) return { secret: randomBytes(32), generated: true };
  let bytes: Buffer;
  if (raw.startsWith('base64:')) {
    const b64 = raw.slice('base64:'.length);
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64) || b64.length % 4 !== 0) {
      throw new ConfigError('SESSION_SECRET', 'the text after "base64:" is not valid base64');
    }
    bytes = Buffer.from(b64, 'base64');
  } else {
    bytes = Buffer.from(raw, 'utf8');
  }
  if (bytes.length < 32) throw new ConfigError('SESSION_SECRET', `must be at least 32 bytes long, got ${bytes.length}`);
  return { secret: bytes, generated: false };
}

function metricsToken(env: Env): string | null {
  const raw = text(env, 'METRICS_TOKEN');
  if (raw === undefined) return null;
  if (!/^[\x21-\x7e]{16,512}$/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN', 'must be 16 to 512 printable characters without spaces');
  }
  return raw;
}

/** REDIS_URL: redis:// or rediss:// (TLS), password and database number in the URL. */
function redisUrl(env: Env): string | null {
  const raw = text(env, 'REDIS_URL');
  if (raw === undefined) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // The value may hold a password: the message never repeats it.
    throw new ConfigError('REDIS_URL', 'must be a redis:// or rediss:// URL');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(
      'REDIS_URL',
      `must be a redis:// or rediss:// URL, got the scheme "${url.protocol.replace(/:$/, '')}"`,
    );
  }
  if (url.hostname === '') throw new ConfigError('REDIS_URL', 'must name a host');
  if (!/^\/?(\d{1,2})?$/.test(url.pathname))
    throw new ConfigError('REDIS_URL', 'the path may only be a database number, as in /0');
  if (url.search || url.hash) throw new ConfigError('REDIS_URL', 'must not carry a query or fragment');
  return raw;
}

/** A Redis URL as a log line may show it: the password masked. */
export function maskRedisUrl(raw: string): string {
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}

function backendMap(env: Env): Config['backendMap'] {
  const file = text(env, 'BACKEND_MAP');
  if (file === undefined) return null;
  try {
    const map = loadBackendMap(file, env);
    const logout = map.console?.calls?.logout;
    // The map's logout starts from BACKEND_LOGOUT_PATH as the count starts from WITHDRAWAL_COUNT_PATH.
    if (
      logout &&
      !logout.unsupported &&
      logout.path === undefined &&
      backendPath(env, 'BACKEND_LOGOUT_PATH', null) === null
    ) {
      throw new BackendMapError(
        file,
        '/console/calls/logout',
        'binds the logout without a path, and BACKEND_LOGOUT_PATH is unset: give it a path',
      );
    }
    return { file, map, services: configuredServices(map, (variable) => httpUrl(env, variable)) };
  } catch (error) {
    if (error instanceof BackendMapError) throw new ConfigError('BACKEND_MAP', error.message);
    throw error;
  }
}

function sandboxDialect(env: Env): SandboxDialect {
  const raw = (text(env, 'SANDBOX_DIALECT') ?? 'default').toLowerCase();
  if (!(SANDBOX_DIALECTS as readonly string[]).includes(raw)) {
    throw new ConfigError('SANDBOX_DIALECT', `must be one of ${SANDBOX_DIALECTS.join(', ')}, got "${raw}"`);
  }
  return raw as SandboxDialect;
}

/**
 * A Host header value (or X-Forwarded-Host from a trusted proxy) as its host name and port; null
 * when it is not one. Through URL, so `[::1]`, upper case and a trailing dot compare as a browser
 * would send them.
 */
export function parseHost(value: string): AllowedHost | null {
  if (value === '' || /[\s/?#@\\]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return null;
  }
  // URL drops a scheme's default port; the text still says whether one was named.
  const port = url.port !== '' ? url.port : (/:(\d{1,5})$/.exec(value)?.[1] ?? null);
  return { hostname: url.hostname.replace(/\.$/, ''), port: port === null ? null : String(Number(port)) };
}

/** ALLOWED_HOSTS: a comma list of host names or addresses, each with an optional port. */
function allowedHosts(env: Env): AllowedHost[] | null {
  const raw = text(env, 'ALLOWED_HOSTS');
  if (raw === undefined) return null;
  const hosts: AllowedHost[] = [];
  for (const part of raw.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const host = parseHost(entry);
    if (!host)
      throw new ConfigError('ALLOWED_HOSTS', `must be host names or addresses with an optional port, got "${entry}"`);
    hosts.push(host);
  }
  if (hosts.length === 0) throw new ConfigError('ALLOWED_HOSTS', 'must name at least one host');
  return hosts;
}

/** ERROR_LOG_ADMIN_PERMISSION: a backend permission, spelled as the permission call lists them. */
function permissionName(env: Env, name: string, fallback: string): string {
  const value = text(env, name) ?? fallback;
  if (!/^[\x21-\x7e]{1,256}$/.test(value))
    throw new ConfigError(name, `must be 1 to 256 printable characters without spaces, got "${value}"`);
  return value;
}

export interface LoadConfigOptions {
  /** Key used when no RESPONSE_AES_KEY is set and the sandbox backend runs. */
  sandboxKey?: string;
}

export function loadConfig(env: Env = process.env, options: LoadConfigOptions = {}): Config {
  const chatBackendUrl = httpUrl(env, 'CHAT_BACKEND_URL');
  const fileServerUrl = httpUrl(env, 'FILE_SERVER_URL') ?? chatBackendUrl;

  const keyText = text(env, 'RESPONSE_AES_KEY') ?? (chatBackendUrl === null ? options.sandboxKey : undefined);
  const key = keyText === undefined ? null : parseKeyText('RESPONSE_AES_KEY', keyText, [16, 24, 32]);
  const ivText = text(env, 'RESPONSE_AES_IV');
  const iv = ivText === undefined ? Buffer.alloc(16) : parseKeyText('RESPONSE_AES_IV', ivText, [16]);
  const modeText = (text(env, 'RESPONSE_AES_MODE') ?? 'cbc').toLowerCase();
  if (modeText !== 'cbc' && modeText !== 'ecb') {
    throw new ConfigError('RESPONSE_AES_MODE', `must be cbc or ecb, got "${modeText}"`);
  }

  const withdrawalCountPath = backendPath(env, 'WITHDRAWAL_COUNT_PATH', '/manage/finance/cashWithdrawalCheck/count');

  const cookieSecureText = (text(env, 'COOKIE_SECURE') ?? 'auto').toLowerCase();
  let cookieSecure: Config['cookieSecure'];
  if (cookieSecureText === 'auto') cookieSecure = 'auto';
  else cookieSecure = bool({ COOKIE_SECURE: cookieSecureText }, 'COOKIE_SECURE', false);

  const logLevel = (text(env, 'LOG_LEVEL') ?? 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }

  const host = text(env, 'HOST') ?? '0.0.0.0';
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const metricsPortText = text(env, 'METRICS_PORT');
  const metricsPort = metricsPortText === undefined ? null : integer(env, 'METRICS_PORT', 0, 0, 65535);
  if (metricsPort !== null && metricsPort !== 0 && metricsPort === port) {
    throw new ConfigError('METRICS_PORT', `must differ from PORT (${port})`);
  }
  const { secret, generated } = sessionSecret(env);

  return {
    port,
    host,
    chatBackendUrl,
    fileServerUrl,
    webClientUrl: httpUrl(env, 'WEB_CLIENT_URL'),
    currency: currencyCode(env, 'CURRENCY', 'CNY'),
    aes: { key, iv, mode: modeText },
    upstreamTimeoutMs: integer(env, 'UPSTREAM_TIMEOUT_MS', 60_000, 1, 3_600_000),
    withdrawalCountPath,
    withdrawalPollMs: integer(env, 'WITHDRAWAL_POLL_MS', 10_000, 100, 3_600_000),
    dataDir: text(env, 'DATA_DIR') ?? './data',
    cookieSecure,
    trustProxy: trustProxy(env),
    logLevel,
    decodeMaxBytes: integer(env, 'DECODE_MAX_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 256 * 1024 * 1024),
    uploadImageMaxBytes: integer(env, 'UPLOAD_IMAGE_MAX_BYTES', 5 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    uploadPackageMaxBytes: integer(env, 'UPLOAD_PACKAGE_MAX_BYTES', 200 * 1024 * 1024, 1024, 8 * 1024 * 1024 * 1024),
    uploadDailyMaxFiles: integer(env, 'UPLOAD_DAILY_MAX_FILES', 200, 1, 1_000_000),
    uploadDailyMaxBytes: integer(env, 'UPLOAD_DAILY_MAX_BYTES', 1024 * 1024 * 1024, 1024, 1024 * 1024 * 1024 * 1024),
    savedViewsMaxPerAdmin: integer(env, 'SAVED_VIEWS_MAX_PER_ADMIN', 200, 1, 100_000),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 0, 600_000),
    upstreamTlsInsecure: bool(env, 'UPSTREAM_TLS_INSECURE', false),
    uiDir: text(env, 'UI_DIR') ?? 'dist/web',
    workers: workers(env),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 2_000, 1, 1_000_000),
    maxConnectionsPerIp: integer(env, 'MAX_CONNECTIONS_PER_IP', 256, 1, 1_000_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 5_000, 100, 600_000),
    sessionIdleMinutes: integer(env, 'SESSION_IDLE_MINUTES', 120, 1, 43_200),
    sessionMaxHours: integer(env, 'SESSION_MAX_HOURS', 12, 1, 8_760),
    sessionSecret: secret,
    sessionSecretGenerated: generated,
    backendLogoutPath: backendPath(env, 'BACKEND_LOGOUT_PATH', null),
    loginMaxFailures: integer(env, 'LOGIN_MAX_FAILURES', 5, 1, 1_000),
    eventsMaxPerSession: integer(env, 'EVENTS_MAX_PER_SESSION', 20, 1, 100_000),
    eventsMaxPerAccount: integer(env, 'EVENTS_MAX_PER_ACCOUNT', 50, 1, 1_000_000),
    eventsMaxTotal: integer(env, 'EVENTS_MAX_TOTAL', 1_500, 1, 1_000_000),
    maxInflightPerSession: integer(env, 'MAX_INFLIGHT_PER_SESSION', 16, 1, 100_000),
    hstsMaxAge: integer(env, 'HSTS_MAX_AGE', 31_536_000, 0, 2_147_483_647),
    metricsPort,
    metricsToken: metricsToken(env),
    redisUrl: redisUrl(env),
    errorLogMaxEntries: integer(env, 'ERROR_LOG_MAX_ENTRIES', 10_000, 100, 10_000_000),
    backendMap: backendMap(env),
    sandboxDialect: sandboxDialect(env),
    allowedHosts: allowedHosts(env),
    revocationsMax: integer(env, 'SESSION_REVOCATIONS_MAX', 200_000, 10, 10_000_000),
    errorLogAdminPermission: permissionName(env, 'ERROR_LOG_ADMIN_PERMISSION', PERMISSIONS.adminUser),
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 400, 1, 36_500),
    auditSegmentBytes: integer(env, 'AUDIT_SEGMENT_BYTES', 64 * 1024 * 1024, 64 * 1024, 2 ** 40 - 1),
    auditMaxBytes: integer(env, 'AUDIT_MAX_BYTES', 2 * 1024 * 1024 * 1024, 256 * 1024, Number.MAX_SAFE_INTEGER),
    dualControl: loadDualControl(env, (variable, reason) => {
      throw new ConfigError(variable, reason);
    }),
  };
}

/** The configuration as a log line may show it: secrets masked. */
export function describeConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    aes: { key: config.aes.key ? `<${config.aes.key.length} bytes>` : null, iv: '<masked>', mode: config.aes.mode },
    sessionSecret: config.sessionSecretGenerated ? '<generated>' : `<${config.sessionSecret.length} bytes>`,
    metricsToken: config.metricsToken === null ? null : '<masked>',
    redisUrl: config.redisUrl === null ? null : maskRedisUrl(config.redisUrl),
    backendMap: config.backendMap?.file ?? null,
  };
}
