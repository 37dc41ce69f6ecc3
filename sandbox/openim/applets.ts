import { randomUUID } from 'node:crypto';
import type { DiscoverRecord } from '../store/records.js';
import { argsError, mongoError, notFound } from './envelope.js';
import { keywordMatcher, listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';

/**
 * Applets (`/applet/*`: `internal/rpc/admin/applet.go`, `model/admin/applet.go`,
 * `pkg/protocol/admin/admin.go` Check methods) over the store's discover entries, the nearest
 * screen: `name` is the title, `priority` the sort value, status 1 (on shelf) an enabled entry and
 * 2 a disabled one. The applet's own fields (string id, app id, md5, size, version, creation
 * time) have no store column and live here.
 */

type Row = Record<string, unknown>;

/** `constant.StatusOnShelf` / `StatusUnShelf`. */
const ON_SHELF = 1;
const UN_SHELF = 2;

interface AppletExtras {
  id: string;
  appID: string;
  md5: string;
  size: number;
  version: string;
  /** Kept when an update sets a status other than 1 or 2, which nothing refuses. */
  status?: number;
  createTime: number;
}

const extras = new WeakMap<OpenImState, Map<number, AppletExtras>>();

/** A store entry OpenIM never saw gets a UUID-shaped id made from its number, so it stays stable. */
function extrasOf(state: OpenImState, record: DiscoverRecord): AppletExtras {
  let map = extras.get(state);
  if (!map) extras.set(state, (map = new Map()));
  let row = map.get(record.id);
  if (!row) {
    row = {
      id: `00000000-0000-4000-8000-${record.id.toString(16).padStart(12, '0')}`,
      appID: '',
      md5: '',
      size: 0,
      version: '',
      createTime: 0,
    };
    map.set(record.id, row);
  }
  return row;
}

function byAppletId(state: OpenImState, id: string): DiscoverRecord | undefined {
  return state.store.discover.find((record) => extrasOf(state, record).id === id);
}

/** `common.AppletInfo`, as `SearchApplet` fills it. */
function appletInfo(state: OpenImState, record: DiscoverRecord): Row {
  const more = extrasOf(state, record);
  return {
    id: more.id,
    name: record.title,
    appID: more.appID,
    icon: record.icon,
    url: record.url,
    md5: more.md5,
    size: more.size,
    version: more.version,
    priority: record.sort,
    status: more.status ?? (record.enabled ? ON_SHELF : UN_SHELF),
    createTime: more.createTime,
  };
}

/** `/applet/search`: keyword a regex over name, id, app id and version; stored order. */
function searchApplets(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const rows = state.store.discover.all().filter((record) => {
    const more = extrasOf(state, record);
    return [record.title, more.id, more.appID, more.version].some(match);
  });
  const page = pageOf(rows, pagination);
  return { total: page.total, applets: listOrNull(page.list.map((record) => appletInfo(state, record))) };
}

/** `AddAppletReq.Check`, run by the API before the RPC repeats the name, app id and status checks. */
function checkNewApplet(body: OpenImBody): void {
  if (body.str('name') === '') throw argsError('name is empty');
  if (body.str('appID') === '') throw argsError('appID is empty');
  if (body.str('icon') === '') throw argsError('icon is empty');
  if (body.str('url') === '') throw argsError('url is empty');
  if (body.str('md5') === '') throw argsError('md5 is empty');
  if (body.int('size') <= 0) throw argsError('size is invalid');
  if (body.str('version') === '') throw argsError('version is empty');
  const status = body.int('status');
  if (status < ON_SHELF || status > UN_SHELF) throw argsError('status is invalid');
}

/** `/applet/add`: the id given, or a new UUID; a taken id breaks the unique index (500). */
function addApplet(state: OpenImState, body: OpenImBody, now: number): undefined {
  checkNewApplet(body);
  const id = body.str('id') || randomUUID();
  if (byAppletId(state, id)) {
    throw mongoError(
      `E11000 duplicate key error collection: openim_enterprise.applet index: id_1 dup key: { id: "${id}" }`,
    );
  }
  const record = state.store.discover.insert({
    icon: body.str('icon'),
    title: body.str('name'),
    url: body.str('url'),
    enabled: body.int('status') === ON_SHELF,
    sort: body.int('priority'),
  });
  Object.assign(extrasOf(state, record), {
    id,
    appID: body.str('appID'),
    md5: body.str('md5'),
    size: body.int('size'),
    version: body.str('version'),
    createTime: now,
  });
  return undefined;
}

/** `/applet/del` `{appletIds}`: all must exist, else 1001 "ids not found: …". */
function delApplets(state: OpenImState, body: OpenImBody): undefined {
  const ids = body.strList('appletIds');
  // An empty list is nil after the gRPC hop: the RPC's Check() refuses it like an absent one.
  if (ids === null || ids.length === 0) throw argsError('appletIds is empty');
  const missing = [...new Set(ids)].filter((id) => !byAppletId(state, id));
  if (missing.length > 0) throw argsError(`ids not found: ${missing.join(', ')}`);
  const doomed = new Set(ids);
  state.store.discover.removeWhere((record) => doomed.has(extrasOf(state, record).id));
  return undefined;
}

/**
 * `/applet/update` (`ToDBAppletUpdate`): wrapper fields; empty name, app id, url or version, a
 * bad md5 or a size ≤ 0 → 1001; nothing to change → "no update info". `createTime` is accepted
 * and ignored. The applet is looked up first: unknown → not found.
 */
function updateApplet(state: OpenImState, body: OpenImBody): undefined {
  const id = body.str('id');
  if (id === '') throw argsError('id is empty');
  const record = byAppletId(state, id);
  if (!record) throw notFound('mongo: no documents in result');
  const name = body.optStr('name');
  const appID = body.optStr('appID');
  const icon = body.optStr('icon');
  const url = body.optStr('url');
  const md5 = body.optStr('md5');
  const size = body.optInt('size');
  const version = body.optStr('version');
  const priority = body.optInt('priority');
  const status = body.optInt('status');
  if (name === '') throw argsError('name is empty');
  if (appID === '') throw argsError('appID is empty');
  if (url === '') throw argsError('url is empty');
  if (md5 !== undefined && !/^[0-9a-fA-F]{32}$/.test(md5)) throw argsError('md5 is invalid');
  if (size !== undefined && size <= 0) throw argsError('size is invalid');
  if (version === '') throw argsError('version is empty');
  if ([name, appID, icon, url, md5, size, version, priority, status].every((v) => v === undefined))
    throw argsError('no update info');
  const more = extrasOf(state, record);
  if (name !== undefined) record.title = name;
  if (appID !== undefined) more.appID = appID;
  if (icon !== undefined) record.icon = icon;
  if (url !== undefined) record.url = url;
  if (md5 !== undefined) more.md5 = md5;
  if (size !== undefined) more.size = size;
  if (version !== undefined) more.version = version;
  if (priority !== undefined) record.sort = priority;
  if (status !== undefined) {
    record.enabled = status === ON_SHELF;
    if (status === ON_SHELF || status === UN_SHELF) delete more.status;
    else more.status = status;
  }
  return undefined;
}

export function appletRoutes(): OpenImRoute[] {
  return [
    { path: '/applet/add', guard: 'admin', handle: ({ state, body, now }) => addApplet(state, body, now) },
    { path: '/applet/del', guard: 'admin', handle: ({ state, body }) => delApplets(state, body) },
    { path: '/applet/update', guard: 'admin', handle: ({ state, body }) => updateApplet(state, body) },
    { path: '/applet/search', guard: 'admin', handle: ({ state, body }) => searchApplets(state, body) },
  ];
}
