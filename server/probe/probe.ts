import {
  CALLS,
  RESOURCES,
  SUCCESS_CODE,
  WITHDRAWAL_REVIEW,
  WITHDRAWAL_STATES,
  fullOffer,
  resourceCalls,
  type OwnCallName,
  type Resource,
} from '../contract/index.js';
import { sessionForService } from '../backend-map/services.js';
import { consoleCalls, type ConsoleCall } from '../backend-map/calls.js';
import { BackendMap } from '../backend-map/engine.js';
import { exchange, type Transport } from '../backend-map/exchange.js';
import { GatewayError } from '../errors.js';
import { mapLogin } from '../backend-map/map-login.js';
import { GatewayLists } from '../backend-map/gateway-lists.js';
import { KeptStore } from '../backend-map/kept-store.js';
import type { Upstream } from '../lib/upstream.js';
import { answeredFields, listFindings, recordFindings, withdrawalStateFindings } from './checks.js';
import { readBackendJson } from '../lib/backend-json.js';
import { NO_SUCH_PATH } from '../backend-map/answer.js';
import { BACKEND_MAP_SCHEMA_ID } from '../backend-map/schema.js';
import type { BackendMapFile, CallMap, CallName, ResourceMap } from '../backend-map/types.js';
import type { ConsoleLogin, SessionCredentials } from '../backend-map/auth.js';

/**
 * The probe: logs in to a backend, then makes only read calls for every screen (a list of one
 * row, the detail of that row, a settings read, seven days of statistics, a preview with default
 * inputs; the dashboard's, the deployment monitor's, the permissions, site configuration and
 * withdrawal count the frame reads) and says per screen whether it answered as the console expects. With a map, each call
 * goes through the same translation as the gateway's. It never calls save, delete, an action, a
 * clean-up or a migration: the only POST it makes is the login.
 */

type Row = Record<string, unknown>;
export type Verdict = 'OK' | 'MISSING' | 'REFUSED' | 'MISMATCH' | 'UNSUPPORTED';

export interface ScreenReport {
  id: string;
  verdict: Verdict;
  detail: string;
  /**
   * The resource's read calls the probe made and those that answered 404 (or "no such
   * interface"), for --write-map: only what is missing at every path tried is unsupported.
   * Absent for the frame's own reads, which are not resources of a map.
   */
  calls?: { tried: string[]; missing: string[] };
  /** What the list answer looked like, for --write-map: where the list and total were. */
  seen?: {
    listAt?: string;
    totalAt?: string;
    paging?: Record<string, string>;
    envelope?: { success: number | string; message: string };
  };
}

export interface ProbeReport {
  screens: ScreenReport[];
  /** Screens the console expects (those the map does not mark unsupported). */
  expected: number;
  answered: number;
}

export class LoginFailed extends Error {}

const PERMISSION = /permission|权限|forbidden|denied/i;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface ProbeOptions {
  account: string;
  password: string;
  code?: string;
  map: BackendMap | null;
  /** WITHDRAWAL_COUNT_PATH: the pending-review count the badge polls. */
  withdrawalCountPath?: string;
  /** The map's services (`service`), each reached at its own address; a call naming none goes to the backend's. */
  services?: Readonly<Record<string, Upstream>>;
  /** The resources the console declares (RESOURCES); a test names one more to see how a backend meets a new screen. */
  resources?: readonly Resource[];
}

/** The reads the probe makes outside the management screens, each reported as a screen of its own. */
export const FRAME_READS = ['dashboard', 'deploymentMonitor', 'menuAndBadge'] as const;

/** How many screens the probe reports: one per resource, and the frame's reads. */
export const probedScreens = (resources: readonly Resource[] = RESOURCES): number =>
  resources.length + FRAME_READS.length;

/** The calls the console makes outside the management screens, by the screen they serve; `own` names the map's console call. */
function fixedReads(
  now: number,
  withdrawalCountPath: string,
  ownPermissions: boolean,
): { id: (typeof FRAME_READS)[number]; reads: { own: OwnCallName | null; path: string }[] }[] {
  const range = `startDate=${day(now - 6 * 86_400_000)}&endDate=${day(now)}`;
  const own = (name: OwnCallName, path: string) => ({ own: name, path });
  return [
    {
      id: 'dashboard',
      reads: [
        own('count', CALLS.count),
        own('dailyStatistics', `${CALLS.dailyStatistics}?${range}`),
        own('financeData', CALLS.financeData),
      ],
    },
    { id: 'deploymentMonitor', reads: [own('monitoring', CALLS.monitoring), own('runner', CALLS.runner)] },
    // A map's `permissions` is answered by the gateway, not by the backend's permission call.
    {
      id: 'menuAndBadge',
      reads: [
        ...(ownPermissions ? [] : [{ own: null, path: CALLS.permission }]),
        own('siteConfig', CALLS.siteConfig),
        own('withdrawalCount', withdrawalCountPath),
      ],
    },
  ];
}

/** The contract's login, or the map's (auth.login) when the upstream carries its auth. */
export async function logIn(upstream: Upstream, form: ConsoleLogin): Promise<SessionCredentials> {
  const auth = upstream.options.auth;
  if (auth) {
    const outcome = await mapLogin(auth, form, (path, init) => upstream.request(path, init), upstream.options.decoder);
    if (outcome.ok) return outcome.credentials;
    throw new LoginFailed('unusable' in outcome ? `the login answer: ${outcome.unusable}` : outcome.msg);
  }
  const login = await upstream.call<{ token?: string; userId?: string | number }>(CALLS.login, {
    method: 'POST',
    body: form,
  });
  if (login.code !== SUCCESS_CODE || typeof login.data?.token !== 'string') {
    throw new LoginFailed(login.msg || `code ${login.code}`);
  }
  return { token: login.data.token, userId: String(login.data.userId ?? '') };
}

export async function probe(upstream: Upstream, options: ProbeOptions): Promise<ProbeReport> {
  const session = await logIn(upstream, {
    account: options.account,
    password: options.password,
    code: options.code ?? '',
  });
  const { map } = options;
  const offer = map?.offer() ?? fullOffer();
  const unsupported = offer.unsupported;
  // First rows' values by key, for a list its backend reads only filtered (`needs`): Shiku's bill
  // takes the user of the withdrawal probed before it.
  const known: Row = {};
  /** The first backend answer of a mapped read, as JSON: what its list looked like, for --write-map. */
  let firstJson: unknown;
  // As the gateway sends a map's calls: each to its service, one after the other (`also`).
  const transport: Transport = {
    send: (sent) =>
      (sent.service === undefined ? upstream : (options.services?.[sent.service] ?? upstream)).request(sent.path, {
        // A service with a token of its own (OpenIM Server's imToken) gets it, as through the gateway.
        session: sessionForService(map?.file, sent.service, session),
        method: sent.method,
        ...(sent.body ? { rawBody: sent.body } : {}),
      }),
    read: async (answer, sent) => {
      const json = await readBackendJson(upstream.options.decoder, answer, sent.method, sent.path);
      firstJson ??= json;
      return json;
    },
  };

  // Lists the backend answers whole (ejabberd's) are paged by the gateway, and a record read out
  // of one: the probe asks them through the gateway's own code, so it reads what the console reads.
  const lists = map
    ? new GatewayLists(
        map,
        async (sent) => {
          const answer = await transport.send(sent);
          const json = await transport.read(answer, sent);
          return { status: answer.status, json };
        },
        new KeptStore(null),
      )
    : null;
  const listSession = { id: 'probe', token: session.token, userId: session.userId, account: options.account };

  /** One read call, as the gateway would send it; the answer in the console's envelope and shape. */
  async function read(call: ConsoleCall, input: Row): Promise<{ sent: string; envelope: Row; raw: Answer }> {
    if (lists?.takes(call)) {
      firstJson = undefined;
      const answer = await lists.answer(call, input, listSession);
      return {
        sent: `${call.kind} of ${call.resource.id}, paged by the gateway`,
        envelope: answer.body,
        raw: { status: answer.status, headers: {}, json: firstJson },
      };
    }
    if (map && map.names(call.resource.id)) {
      const p = map.prepare(call, input, { session });
      if ('unsupported' in p) throw new GatewayError('UNSUPPORTED_BY_BACKEND', p.unsupported);
      // Sent as the gateway sends it: a read the map makes a POST (a search with a body) is one
      // here too, and a screen read over several calls makes them all.
      firstJson = undefined;
      const mapped = await exchange(p, transport);
      return {
        sent: `${p.request.method} ${p.request.path.split('?')[0]}`,
        envelope: mapped.body,
        raw: { status: mapped.status, headers: {}, json: firstJson },
      };
    }
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(input)) search.append(k, String(v));
    const path = [...search].length ? `${call.path}?${search.toString()}` : call.path;
    const answer = await upstream.request(path, { session, method: 'GET' });
    const text = (await upstream.options.decoder(answer, path)).toString('utf8');
    const sent = `GET ${path.split('?')[0]}`;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      if (answer.status === 404) throw new GatewayError('BACKEND_NO_SUCH_CALL', sent);
      throw new GatewayError('UPSTREAM_BAD_ANSWER', `HTTP ${answer.status}, not JSON`);
    }
    return { sent, envelope: json as Row, raw: { status: answer.status, headers: answer.headers, json } };
  }

  function verdictOf(sent: string, envelope: Row, status: number): ScreenReport | null {
    const code = envelope.code;
    const msg = typeof envelope.msg === 'string' ? envelope.msg : '';
    if (status === 404 || (code === 404 && NO_SUCH_PATH.test(msg)))
      return { id: '', verdict: 'MISSING', detail: `${sent}: ${msg || 'HTTP 404'}` };
    if ((code === 401 || code === 403) && PERMISSION.test(msg))
      return { id: '', verdict: 'REFUSED', detail: `${sent}: ${msg}` };
    if (code !== SUCCESS_CODE)
      return { id: '', verdict: 'MISMATCH', detail: `${sent}: code ${String(code)} ${msg}`.trim() };
    return null;
  }

  async function screen(resource: Resource): Promise<ScreenReport> {
    const absent = new Set(unsupported.fields[resource.id] ?? []);
    const calls = consoleCalls(resource);
    const find = (kind: ConsoleCall['kind']) => calls.find((c) => c.kind === kind)!;
    const findings: string[] = [];
    let seen: ScreenReport['seen'];
    const tried: string[] = [];
    const missing: string[] = [];
    const run = async (
      call: ConsoleCall,
      input: Row,
      check: (data: unknown, raw: Answer) => void,
    ): Promise<ScreenReport | null> => {
      tried.push(call.kind);
      let refused: ScreenReport | null;
      try {
        const { sent, envelope, raw } = await read(call, input);
        refused = verdictOf(sent, envelope, raw.status);
        if (!refused) check(envelope.data, raw);
      } catch (error) {
        if (!(error instanceof GatewayError && error.errorName === 'BACKEND_NO_SUCH_CALL')) throw error;
        refused = { id: '', verdict: 'MISSING', detail: error.message };
      }
      if (refused?.verdict === 'MISSING') missing.push(call.kind);
      return refused;
    };
    // Ids the map declares as text (a 24-hex ObjectId, OpenIM's invitation code, an IP) are the
    // backend's own: checked as text, not numbers, and sent back as they came.
    const textIds =
      map !== null &&
      map.names(resource.id) &&
      (map.file.resources?.[resource.id]?.id ?? map.file.resources?.[resource.id]?.fields?.id?.id ?? map.file.id) ===
        'string';
    // A value a per-row call adds (ejabberd's vCard nickname, last login) is left out where that
    // call has none for the row (`unless`, or no vCard): its absence says nothing of the binding.
    const perRow = new Set(
      (map?.file.resources?.[resource.id]?.calls?.list?.rows ?? []).flatMap((part) => Object.keys(part.set ?? {})),
    );
    const fields = answeredFields(resource, new Set([...absent, ...perRow])).map((f) =>
      textIds && f.key === 'id' ? { ...f, kind: 'text' as const } : f,
    );
    let firstRow: Row | null = null;
    const stop = await (async () => {
      switch (resource.kind) {
        case 'list': {
          const needs = offer.needs?.[resource.id] ?? [];
          const lacking = needs.filter((key) => known[key] === undefined);
          if (lacking.length > 0)
            return {
              id: resource.id,
              verdict: 'MISMATCH' as const,
              detail: `the list needs ${lacking.join(', ')}, which no list probed before it gave`,
            };
          const filters = Object.fromEntries(needs.map((key) => [key, known[key]]));
          const out = await run(find('list'), { pageNum: 1, pageSize: 1, ...filters }, (data, raw) => {
            seen = observe(raw.json);
            const problems = listFindings(data);
            findings.push(...problems);
            const row = problems.length === 0 ? (data as { list: unknown[] }).list[0] : undefined;
            if (typeof row === 'object' && row !== null) {
              firstRow = row as Row;
              findings.push(...recordFindings(fields, firstRow));
              for (const [key, value] of Object.entries(firstRow))
                if (known[key] === undefined && (typeof value === 'string' || typeof value === 'number'))
                  known[key] = value;
            }
          });
          if (out || !resource.detail || !firstRow || (unsupported.calls[resource.id] ?? []).includes('detail'))
            return out;
          const row: Row = firstRow;
          return run(find('detail'), { id: row.id as string }, (data) => {
            if (typeof data !== 'object' || data === null) findings.push('the detail is not an object');
          });
        }
        case 'settings':
          return run(find('config'), {}, (data) => {
            if (typeof data !== 'object' || data === null) findings.push('the settings are not an object');
            else findings.push(...recordFindings(fields, data as Row));
          });
        case 'statistics': {
          const now = Date.now();
          return run(find('list'), { startDate: day(now - 6 * 86_400_000), endDate: day(now) }, (data, raw) => {
            seen = observe(raw.json);
            const problems = listFindings(data);
            findings.push(...problems);
            const row = problems.length === 0 ? (data as { list: unknown[] }).list[0] : undefined;
            if (typeof row === 'object' && row !== null) findings.push(...recordFindings(fields, row as Row));
          });
        }
        case 'operation': {
          if (!resource.preview) return null;
          // Default inputs: a preview reads what the operation would do, and changes nothing.
          const input: Row = {};
          for (const f of resource.inputs) input[f.key] = f.options?.[0] ?? f.min ?? 1;
          return run(find('preview'), input, (data) => {
            if (typeof data !== 'object' || data === null) findings.push('the preview is not an object');
          });
        }
      }
    })();
    if (resource.id === WITHDRAWAL_REVIEW.id && map?.names(resource.id))
      findings.push(...withdrawalStateFindings(map.file.resources?.[resource.id]?.fields?.state, WITHDRAWAL_STATES));
    const extra = { calls: { tried, missing }, ...(seen ? { seen } : {}) };
    if (stop) return { ...stop, id: resource.id, ...extra };
    if (findings.length) return { id: resource.id, verdict: 'MISMATCH', detail: findings.join('; '), ...extra };
    return { id: resource.id, verdict: 'OK', detail: resourceCalls(resource).list.replace(/\/list$/, ''), ...extra };
  }

  const screens: ScreenReport[] = [];
  for (const resource of options.resources ?? RESOURCES) {
    if (unsupported.resources.includes(resource.id)) {
      screens.push({ id: resource.id, verdict: 'UNSUPPORTED', detail: 'marked unsupported in the map: not asked' });
      continue;
    }
    try {
      screens.push(await screen(resource));
    } catch (error) {
      if (error instanceof GatewayError && error.errorName === 'UNSUPPORTED_BY_BACKEND') {
        screens.push({ id: resource.id, verdict: 'UNSUPPORTED', detail: `${error.message}: not asked` });
      } else {
        screens.push({
          id: resource.id,
          verdict: 'MISMATCH',
          detail: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  for (const { id, reads } of fixedReads(
    Date.now(),
    options.withdrawalCountPath ?? CALLS.withdrawalCount,
    map?.file.permissions !== undefined,
  )) {
    // A read the map's console section marks unsupported is not asked (the console leaves its panel out).
    const asked = reads.filter((r) => !(r.own && map?.namesOwn(r.own) && unsupported.console.includes(r.own)));
    if (asked.length === 0) {
      screens.push({ id, verdict: 'UNSUPPORTED', detail: 'marked unsupported in the map: not asked' });
      continue;
    }
    let result: ScreenReport = { id, verdict: 'OK', detail: asked.map((r) => r.path.split('?')[0]).join(', ') };
    for (const { own, path: contractPath } of asked) {
      try {
        // Sent as the gateway sends it: through the map's console section when it names the call.
        const prepared =
          own && map?.namesOwn(own)
            ? map.prepareOwn(own, 'GET', Object.fromEntries(new URLSearchParams(contractPath.split('?')[1] ?? '')), {
                session,
              })
            : null;
        const request =
          prepared && 'request' in prepared ? prepared.request : { method: 'GET' as const, path: contractPath };
        const path = request.path;
        const sent = `${request.method} ${path.split('?')[0]}`;
        let envelope: unknown;
        let status: number;
        if (prepared && 'bound' in prepared) {
          // Every call the map makes for it (a figure from several), each to its service.
          ({ status, body: envelope } = await exchange(prepared, transport));
        } else {
          const answer = await upstream.request(path, {
            session,
            method: request.method,
            ...(request.body ? { rawBody: request.body } : {}),
          });
          status = answer.status;
          try {
            envelope = JSON.parse((await upstream.options.decoder(answer, request.path)).toString('utf8'));
          } catch {
            result = {
              id,
              verdict: answer.status === 404 ? 'MISSING' : 'MISMATCH',
              detail: `${sent}: HTTP ${answer.status}, not JSON`,
            };
            break;
          }
        }
        const refused = verdictOf(
          sent,
          (typeof envelope === 'object' && envelope !== null ? envelope : {}) as Row,
          status,
        );
        if (refused) {
          result = { ...refused, id };
          break;
        }
        const data = (envelope as Row).data;
        if (data === undefined || data === null) {
          result = { id, verdict: 'MISMATCH', detail: `${sent}: no data in the answer` };
          break;
        }
      } catch (error) {
        const missing = error instanceof GatewayError && error.errorName === 'BACKEND_NO_SUCH_CALL';
        result = {
          id,
          verdict: missing ? 'MISSING' : 'MISMATCH',
          detail: error instanceof Error ? error.message : String(error),
        };
        break;
      }
    }
    screens.push(result);
  }
  const expected = screens.filter((s) => s.verdict !== 'UNSUPPORTED').length;
  return { screens, expected, answered: screens.filter((s) => s.verdict === 'OK').length };
}

/** Where an unmapped list answer kept its rows and total, and its envelope, for a starting map. */
function observe(json: unknown): ScreenReport['seen'] {
  if (typeof json !== 'object' || json === null) return undefined;
  const root = json as Row;
  const seen: NonNullable<ScreenReport['seen']> = {};
  const data = root.data ?? root.result;
  const dataKey = root.data !== undefined ? 'data' : root.result !== undefined ? 'result' : null;
  if (dataKey && typeof data === 'object' && data !== null) {
    const arrays = Object.entries(data as Row).filter(([, v]) => Array.isArray(v));
    if (arrays.length === 1) seen.listAt = `/${dataKey}/${arrays[0]![0]}`;
    const totals = ['total', 'totalCount', 'totalElements', 'count'].filter(
      (k) => typeof (data as Row)[k] === 'number' || typeof (data as Row)[k] === 'string',
    );
    if (totals.length === 1) seen.totalAt = `/${dataKey}/${totals[0]!}`;
    const paging: Record<string, string> = {};
    if ('current' in (data as Row) && 'size' in (data as Row))
      Object.assign(paging, { pageNum: 'current', pageSize: 'size' });
    if ('page' in (data as Row) && 'limit' in (data as Row))
      Object.assign(paging, { pageNum: 'page', pageSize: 'limit' });
    if (Object.keys(paging).length) seen.paging = paging;
  }
  const code = root.code;
  if (
    (typeof code === 'number' || typeof code === 'string') &&
    code !== SUCCESS_CODE &&
    typeof root.message === 'string' &&
    root.msg === undefined
  ) {
    seen.envelope = { success: code, message: '/message' };
  }
  return seen;
}

/**
 * A starting map from what the probe saw, for the operator to finish; with the map it probed
 * through (`base`), that whole map with entries added for the screens it does not name. A screen is unsupported
 * only when every call the probe made for it answered 404 (or the map already said so); a call
 * missing beside others that answered is unsupported alone (a list without its detail). The
 * frame's own reads (dashboard, monitor, menu) are not resources of a map and are never written.
 */
export function startingMap(report: ProbeReport, base: BackendMapFile | null = null): BackendMapFile {
  const resources: Record<string, ResourceMap> = {};
  const known = new Set(RESOURCES.map((r) => r.id));
  for (const screen of report.screens) {
    // An entry of the map probed through is kept as written, bound or not.
    if (!known.has(screen.id) || base?.resources?.[screen.id]) continue;
    const tried = screen.calls?.tried ?? [];
    const missing = new Set(screen.calls?.missing ?? []);
    if (screen.verdict === 'UNSUPPORTED' || (tried.length > 0 && tried.every((c) => missing.has(c)))) {
      resources[screen.id] = { unsupported: true };
      continue;
    }
    const calls: NonNullable<ResourceMap['calls']> = {};
    // The probe tries read calls only, each by its name in the map.
    for (const name of missing) calls[name as CallName] = { unsupported: true };
    const seen = screen.seen;
    if (seen && screen.verdict !== 'OK') {
      const answer: NonNullable<CallMap['answer']> = {};
      if (seen.listAt && seen.listAt !== '/data/list') answer.list = seen.listAt;
      if (seen.totalAt && seen.totalAt !== '/data/total') answer.total = seen.totalAt;
      if (seen.envelope) Object.assign(answer, { success: [seen.envelope.success], message: seen.envelope.message });
      const list: CallMap = {};
      if (Object.keys(answer).length) list.answer = answer;
      if (seen.paging) list.params = seen.paging;
      if (Object.keys(list).length) calls.list = list;
    }
    if (Object.keys(calls).length) resources[screen.id] = { calls };
  }
  return {
    $schema: BACKEND_MAP_SCHEMA_ID,
    description:
      'Written by npm run probe --write-map: a start. Fill in paths, field names and units (docs/binding.md).',
    ...base,
    resources: { ...resources, ...base?.resources },
  };
}

export function formatReport(report: ProbeReport): string[] {
  const width = Math.max(...report.screens.map((s) => s.id.length));
  const lines = report.screens.map((s) => `${s.verdict.padEnd(11)} ${s.id.padEnd(width)}  ${s.detail}`);
  const skipped = report.screens.length - report.expected;
  const unasked = skipped > 0 ? `; ${skipped} unsupported, not asked` : '';
  lines.push(`${report.answered} of ${report.expected} screens answered as the console expects${unasked}`);
  return lines;
}
