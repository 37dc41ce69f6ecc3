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
  it('has the defaults of DESIGN section 2', () => {
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
  });

  it('uses no sandbox key when a real backend is named', () => {
    const config = loadConfig({ CHAT_BACKEND_URL: 'http://chat:8081/' }, { sandboxKey: 'sandbox-key-sandbox-key-sandbox!' });
    expect(config.chatBackendUrl).toBe('http://chat:8081');
    expect(config.fileServerUrl).toBe('http://chat:8081');
    expect(config.aes.key).toBeNull();
  });

  it('reads base64 keys and picks the AES size from the length', () => {
    const key = Buffer.alloc(24, 5);
    const config = loadConfig({ CHAT_BACKEND_URL: 'http://x', RESPONSE_AES_KEY: `base64:${key.toString('base64')}`, RESPONSE_AES_MODE: 'ECB' });
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
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
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
});
