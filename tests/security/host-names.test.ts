import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS, GATEWAY_PATHS } from '../../server/contract/index.js';
import { ConfigError, loadConfig } from '../../server/config.js';
import { FAKE_PASSWORD, fakeAccount } from '../support/fake-session.js';
import { callsSince, rawRequest, startRig, type Rig } from './support/rig.js';

/**
 * DNS rebinding: a page on the attacker's name, re-pointed at the console's address, sends
 * `Host: rebind.attacker.example` with a matching Origin, so the same-origin rule let it log in.
 * With ALLOWED_HOSTS the gateway answers only for its own names (421 otherwise); health probes,
 * which name the gateway by its address, still get through.
 */

const ATTACKER_HOST = 'rebind.attacker.example';

function loginRequest(host: string): string {
  const body = JSON.stringify({
    account: fakeAccount({ token: 'tok-rebind', userId: '5' }),
    password: FAKE_PASSWORD,
    code: '',
  });
  return [
    `POST ${CALLS.login} HTTP/1.1`,
    `Host: ${host}`,
    `Origin: http://${host}`,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

function getRequest(path: string, host: string): string {
  return [`GET ${path} HTTP/1.1`, `Host: ${host}`, 'Connection: close', '', ''].join('\r\n');
}

describe('host names', () => {
  let rig: Rig;

  beforeAll(async () => {
    rig = await startRig({ ALLOWED_HOSTS: 'admin.example.com, 127.0.0.1' });
  });
  afterAll(async () => {
    await rig.close();
  });

  it('refuses a login for a host name not in ALLOWED_HOSTS with 421, before the backend hears of it', async () => {
    const before = rig.backend.calls.length;
    for (const host of [
      ATTACKER_HOST,
      `${ATTACKER_HOST}:${rig.port}`,
      'admin.example.com.attacker.example',
      'localhost',
    ]) {
      const answer = await rawRequest(rig.port, loginRequest(host));
      expect(answer.status, host).toBe(421);
      expect(JSON.parse(answer.body)).toEqual({
        code: 421,
        msg: 'This console does not answer for that host name',
        error: 'MISDIRECTED_REQUEST',
      });
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
    for (const path of [GATEWAY_PATHS.session, GATEWAY_PATHS.errorLog, CALLS.permission, '/', '/users']) {
      expect((await rawRequest(rig.port, getRequest(path, ATTACKER_HOST))).status, path).toBe(421);
    }
    expect(callsSince(rig.backend, before)).toEqual([]);
  });

  it('answers the names it is given, any port of a name given without one, whatever the case', async () => {
    for (const host of ['admin.example.com', 'ADMIN.example.com:8443', `127.0.0.1:${rig.port}`]) {
      const answer = await rawRequest(rig.port, loginRequest(host));
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 200 });
    }
  });

  it('lets health probes through whatever the host name, but not metrics', async () => {
    expect((await rawRequest(rig.port, getRequest(GATEWAY_PATHS.healthz, '10.0.0.5:8080'))).status).toBe(200);
    expect((await rawRequest(rig.port, getRequest(GATEWAY_PATHS.readyz, '10.0.0.5:8080'))).status).toBe(200);
    expect((await rawRequest(rig.port, getRequest(GATEWAY_PATHS.metrics, ATTACKER_HOST))).status).toBe(421);
  });

  it('is validated at start', () => {
    expect(() => loadConfig({ ALLOWED_HOSTS: 'admin.example.com, http://x/' })).toThrow(ConfigError);
    expect(() => loadConfig({ ALLOWED_HOSTS: ' , ' })).toThrow(/ALLOWED_HOSTS/);
    expect(loadConfig({ ALLOWED_HOSTS: 'Admin.Example.com:8443,[::1]' }).allowedHosts).toEqual([
      { hostname: 'admin.example.com', port: '8443' },
      { hostname: '[::1]', port: null },
    ]);
    expect(loadConfig({}).allowedHosts).toBeNull();
  });
});
