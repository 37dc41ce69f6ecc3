import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from '../../server/config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({}, { sandboxKey: 'sandbox-key-sandbox-key-sandbox!' });
    expect(config.port).toBe(8080);
    expect(config.host).toBe('0.0.0.0');
    expect(config.chatBackendUrl).toBeNull();
    expect(config.upstreamTimeoutMs).toBe(60_000);
    expect(config.withdrawalCountPath).toBe('/manage/finance/cashWithdrawalCheck/count');
    expect(config.withdrawalPollMs).toBe(10_000);
    expect(config.dataDir).toBe('./data');
    expect(config.cookieSecure).toBe('auto');
    expect(config.trustProxy).toBe(false);
    expect(config.logLevel).toBe('info');
    expect(config.aes.mode).toBe('cbc');
    expect(config.aes.iv.equals(Buffer.alloc(16))).toBe(true);
    expect(config.aes.key?.length).toBe(32);
    expect(config.webClientUrl).toBeNull();
  });

  it("bounds the audit trail's files: 64 MiB a segment, 2 GiB in all, each at least a little", () => {
    const config = loadConfig({ CHAT_BACKEND_URL: 'http://x' });
    expect(config.auditSegmentBytes).toBe(64 * 1024 * 1024);
    expect(config.auditMaxBytes).toBe(2 * 1024 * 1024 * 1024);
    const set = loadConfig({
      CHAT_BACKEND_URL: 'http://x',
      AUDIT_SEGMENT_BYTES: '1048576',
      AUDIT_MAX_BYTES: '10485760',
    });
    expect([set.auditSegmentBytes, set.auditMaxBytes]).toEqual([1_048_576, 10_485_760]);
    expect(configError({ CHAT_BACKEND_URL: 'http://x', AUDIT_SEGMENT_BYTES: '100' }).message).toContain(
      'AUDIT_SEGMENT_BYTES',
    );
    expect(configError({ CHAT_BACKEND_URL: 'http://x', AUDIT_MAX_BYTES: 'lots' }).message).toContain('AUDIT_MAX_BYTES');
  });

  it('has the security defaults, and makes a session secret when none is set', () => {
    const config = loadConfig({ CHAT_BACKEND_URL: 'http://x' });
    expect(config.requestTimeoutMs).toBe(30_000);
    expect(config.maxConnections).toBe(2_000);
    expect(config.sessionIdleMinutes).toBe(120);
    expect(config.sessionMaxHours).toBe(12);
    expect(config.loginMaxFailures).toBe(5);
    expect(config.eventsMaxPerSession).toBe(20);
    expect(config.hstsMaxAge).toBe(31_536_000);
    expect(config.metricsPort).toBeNull();
    expect(config.metricsToken).toBeNull();
    expect(config.backendLogoutPath).toBeNull();
    expect(config.sessionSecretGenerated).toBe(true);
    expect(config.sessionSecret.length).toBe(32);
    // A new one each time: two gateways without SESSION_SECRET never share sessions by accident.
    expect(loadConfig({ CHAT_BACKEND_URL: 'http://x' }).sessionSecret.equals(config.sessionSecret)).toBe(false);
  });

  it('reads the session secret as text or base64 bytes', () => {
    const text = loadConfig({ CHAT_BACKEND_URL: 'http://x', SESSION_SECRET: 'a-session-secret-of-thirty-two-b' });
    expect(text.sessionSecret.toString()).toBe('a-session-secret-of-thirty-two-b');
    expect(text.sessionSecretGenerated).toBe(false);
    const bytes = Buffer.alloc(48, 9);
    expect(
      loadConfig({
        CHAT_BACKEND_URL: 'http://x',
        SESSION_SECRET: `base64:${bytes.toString('base64')}`,
      }).sessionSecret.equals(bytes),
    ).toBe(true);
  });

  it('uses no sandbox key when a real backend is named', () => {
    const config = loadConfig(
      { CHAT_BACKEND_URL: 'http://chat:8081/' },
      { sandboxKey: 'sandbox-key-sandbox-key-sandbox!' },
    );
    expect(config.chatBackendUrl).toBe('http://chat:8081');
    expect(config.fileServerUrl).toBe('http://chat:8081');
    expect(config.aes.key).toBeNull();
  });

  it('reads base64 keys and picks the AES size from the length', () => {
    const key = Buffer.alloc(24, 5);
    const config = loadConfig({
      CHAT_BACKEND_URL: 'http://x',
      RESPONSE_AES_KEY: `base64:${key.toString('base64')}`,
      RESPONSE_AES_MODE: 'ECB',
    });
    expect(config.aes.key?.equals(key)).toBe(true);
    expect(config.aes.mode).toBe('ecb');
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ CHAT_BACKEND_URL: 'not a url' }, 'CHAT_BACKEND_URL'],
    [{ CHAT_BACKEND_URL: 'ftp://chat' }, 'CHAT_BACKEND_URL'],
    [{ RESPONSE_AES_KEY: 'short' }, 'RESPONSE_AES_KEY'],
    [{ RESPONSE_AES_KEY: 'base64:%%%' }, 'RESPONSE_AES_KEY'],
    [{ RESPONSE_AES_IV: '0123' }, 'RESPONSE_AES_IV'],
    [{ RESPONSE_AES_MODE: 'gcm' }, 'RESPONSE_AES_MODE'],
    [{ UPSTREAM_TIMEOUT_MS: '-5' }, 'UPSTREAM_TIMEOUT_MS'],
    [{ WITHDRAWAL_POLL_MS: '-1' }, 'WITHDRAWAL_POLL_MS'],
    [{ WITHDRAWAL_COUNT_PATH: 'count' }, 'WITHDRAWAL_COUNT_PATH'],
    [{ COOKIE_SECURE: 'maybe' }, 'COOKIE_SECURE'],
    [{ TRUST_PROXY: 'everyone' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ SESSION_SECRET: 'too short' }, 'SESSION_SECRET'],
    [{ SESSION_SECRET: 'base64:AAAA' }, 'SESSION_SECRET'],
    [{ SESSION_IDLE_MINUTES: '0' }, 'SESSION_IDLE_MINUTES'],
    [{ SESSION_MAX_HOURS: 'forever' }, 'SESSION_MAX_HOURS'],
    [{ BACKEND_LOGOUT_PATH: 'logout' }, 'BACKEND_LOGOUT_PATH'],
    [{ BACKEND_LOGOUT_PATH: '//evil.example/logout' }, 'BACKEND_LOGOUT_PATH'],
    [{ LOGIN_MAX_FAILURES: '0' }, 'LOGIN_MAX_FAILURES'],
    [{ REQUEST_TIMEOUT_MS: '10' }, 'REQUEST_TIMEOUT_MS'],
    [{ MAX_CONNECTIONS: '-1' }, 'MAX_CONNECTIONS'],
    [{ EVENTS_MAX_PER_SESSION: 'lots' }, 'EVENTS_MAX_PER_SESSION'],
    [{ HSTS_MAX_AGE: '-1' }, 'HSTS_MAX_AGE'],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT'],
    [{ PORT: '9000', METRICS_PORT: '9000' }, 'METRICS_PORT'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'has a space in it, sixteen+' }, 'METRICS_TOKEN'],
    [{ WEB_CLIENT_URL: 'im.chat.example.com' }, 'WEB_CLIENT_URL'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'http://redis:6379' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://redis:6379/zero' }, 'REDIS_URL'],
    [{ REDIS_URL: 'redis://redis:6379?family=6' }, 'REDIS_URL'],
    [{ ERROR_LOG_MAX_ENTRIES: '10' }, 'ERROR_LOG_MAX_ENTRIES'],
  ])('refuses %o with one line naming %s', (env, variable) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message.startsWith(`${variable}: `)).toBe(true);
    expect(error.message).not.toContain('\n');
  });

  it('masks the key when describing the configuration', () => {
    const config = loadConfig({ CHAT_BACKEND_URL: 'http://x', RESPONSE_AES_KEY: '0123456789abcdef' });
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain('0123456789abcdef');
    expect(text).toContain('16 bytes');
  });

  it('masks the session secret and the metrics token when describing the configuration', () => {
    const secret = 'a-session-secret-of-thirty-two-b';
    const config = loadConfig({
      CHAT_BACKEND_URL: 'http://x',
      SESSION_SECRET: secret,
      METRICS_TOKEN: 'metrics-token-0123456789',
    });
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(JSON.stringify([...Buffer.from(secret)]).slice(1, 20));
    expect(text).not.toContain('metrics-token-0123456789');
    expect(JSON.stringify(describeConfig(loadConfig({ CHAT_BACKEND_URL: 'http://x' })))).toContain(
      '"sessionSecret":"<generated>"',
    );
  });

  it('reads REDIS_URL with its password, database and TLS, and never shows the password', () => {
    expect(loadConfig({}).redisUrl).toBeNull();
    expect(loadConfig({}).errorLogMaxEntries).toBe(10_000);
    for (const url of ['redis://redis:6379', 'redis://:pw@redis:6379/2', 'rediss://user:pw@redis.example.com:6380/0']) {
      expect(loadConfig({ REDIS_URL: url }).redisUrl).toBe(url);
    }
    const config = loadConfig({
      REDIS_URL: 'rediss://:hush-redis-password@redis.example.com:6380/1',
      ERROR_LOG_MAX_ENTRIES: '500',
    });
    expect(config.errorLogMaxEntries).toBe(500);
    const text = JSON.stringify(describeConfig(config));
    expect(text).not.toContain('hush-redis-password');
    expect(text).toContain('rediss://:***@redis.example.com:6380/1');
    // A URL that does not parse may still hold a password: the error never repeats the value.
    expect(configError({ REDIS_URL: 'redis://:hush@[bad' }).message).not.toContain('hush');
  });
});

describe('dual control', () => {
  it('is off by default, with a day for a hold to wait', () => {
    expect(loadConfig({ CHAT_BACKEND_URL: 'http://x' }).dualControl).toEqual({
      above: null,
      ttlHours: 24,
      settings: [],
      maxOpen: 20,
    });
  });

  it('reads the threshold in the smallest unit, the wait in hours, and settings screens by resource id', () => {
    const config = loadConfig({
      CHAT_BACKEND_URL: 'http://x',
      DUAL_CONTROL_ABOVE: '100000',
      DUAL_CONTROL_TTL_HOURS: '8',
      DUAL_CONTROL_SETTINGS: ' withdrawalConfig, signInConfig,withdrawalConfig ',
      DUAL_CONTROL_MAX_OPEN: '50',
    });
    expect(config.dualControl).toEqual({
      above: 100_000,
      ttlHours: 8,
      settings: ['withdrawalConfig', 'signInConfig'],
      maxOpen: 50,
    });
  });

  it('stops the start on a bad value, naming the variable', () => {
    expect(configError({ DUAL_CONTROL_ABOVE: '1000.50' }).variable).toBe('DUAL_CONTROL_ABOVE');
    expect(configError({ DUAL_CONTROL_ABOVE: '-5' }).variable).toBe('DUAL_CONTROL_ABOVE');
    expect(configError({ DUAL_CONTROL_TTL_HOURS: '0' }).variable).toBe('DUAL_CONTROL_TTL_HOURS');
    expect(configError({ DUAL_CONTROL_MAX_OPEN: '0' }).variable).toBe('DUAL_CONTROL_MAX_OPEN');
    expect(configError({ DUAL_CONTROL_MAX_OPEN: 'many' }).variable).toBe('DUAL_CONTROL_MAX_OPEN');
    // A list screen is no settings screen: its saves are not what this holds.
    const error = configError({ DUAL_CONTROL_SETTINGS: 'withdrawalConfig,rechargeChannels' });
    expect(error.variable).toBe('DUAL_CONTROL_SETTINGS');
    expect(error.message).toContain('"rechargeChannels" is not a settings screen');
  });
});
