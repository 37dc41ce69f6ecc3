import { expect, it } from 'vitest';
import { BackendMap } from '../../server/backend-map/engine.js';
import { loadBackendMap } from '../../server/backend-map/load.js';
import { backendAuthOf } from '../../server/backend-map/auth.js';
import { Upstream } from '../../server/lib/upstream.js';
import { formatReport, probe } from '../../server/probe/probe.js';
import { describeEjabberd, useEjabberd } from '../support/ejabberd-suite.js';
import { seedEjabberd } from '../support/ejabberd-seed.js';

/**
 * `npm run probe` against a real ejabberd 23.01 through the shipped map: every screen the map
 * binds answers as the console expects, and every other one is reported as not offered, never as
 * missing or mismatched.
 */

const MAP = 'server/backend-map/bindings/ejabberd.json';

describeEjabberd('the probe against a real ejabberd through the shipped map', () => {
  const ej = useEjabberd({ host: 'probe.test', mucHost: 'rooms.probe.test' });

  it('finds every screen the map binds answering, the rest not offered', async () => {
    const server = ej.server;
    await seedEjabberd(server, { users: 12, rooms: 2 });
    const map = new BackendMap(loadBackendMap(MAP, { EJABBERD_HOST: server.host, EJABBERD_MUC_HOST: server.mucHost }));
    const upstream = new Upstream({
      baseUrl: server.url,
      timeoutMs: 10_000,
      tlsInsecure: false,
      maxAnswerBytes: 32 * 1024 * 1024,
      auth: backendAuthOf(map.file),
      // ejabberd answers plain JSON: nothing to decode.
      decoder: async (answer) => answer.body,
    });
    try {
      const report = await probe(upstream, {
        account: server.admin.account,
        password: server.admin.password,
        map,
      });
      const lines = formatReport(report).join('\n');
      expect(
        report.screens.filter((s) => s.verdict !== 'OK' && s.verdict !== 'UNSUPPORTED'),
        lines,
      ).toEqual([]);
      // Every screen the map binds a read of (mass messages are sent, never listed: nothing to read).
      const bound = Object.entries(map.file.resources ?? {})
        .filter(([, r]) => !r.unsupported && !r.calls?.list?.unsupported)
        .map(([id]) => id);
      expect(bound.length).toBeGreaterThanOrEqual(3);
      const answered = report.screens.filter((s) => s.verdict === 'OK').map((s) => s.id);
      for (const id of [...bound, 'dashboard']) expect(answered, lines).toContain(id);
      expect(report.answered).toBe(report.expected);
    } finally {
      await upstream.close();
    }
  });
});
