import { describe, expect, it } from 'vitest';
import { rigPerTest } from './support/rig.js';

/**
 * /metrics used to be open on the console's own port by default, naming the Node version and the
 * traffic to anyone who reached the console. Now it is off unless the operator says where it may
 * be read: METRICS_PORT (a port of its own) or METRICS_TOKEN (a bearer token).
 */

const rig = rigPerTest();

describe('/metrics by default', () => {
  it('answers 404 in the envelope on the main port, to a scraper and to a browser alike', async () => {
    const r = await rig();
    for (const accept of ['text/plain', 'text/html,application/xhtml+xml']) {
      const answer = await fetch(`${r.url}/metrics`, {
        headers: { accept, 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' },
      });
      expect(answer.status, accept).toBe(404);
      const text = await answer.text();
      expect(JSON.parse(text)).toMatchObject({ code: 404, error: 'NOT_FOUND' });
      expect(text).not.toMatch(/nodejs_version|gateway_http_requests_total/);
    }
    expect(r.app.metricsAddress()).toBeNull();
  });

  it('is served on METRICS_PORT alone, without a token, and nowhere else', async () => {
    const r = await rig({ METRICS_PORT: '0' });
    expect((await fetch(`${r.url}/metrics`)).status).toBe(404);
    const own = await fetch(`http://127.0.0.1:${r.app.metricsAddress()!.port}/metrics`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('gateway_http_requests_total');
  });
});
