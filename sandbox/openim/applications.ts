import { APP_PLATFORMS } from '../../server/contract/index.js';
import type { AppVersionRecord } from '../store/records.js';
import { argsError, mongoError } from './envelope.js';
import { listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';

/**
 * App versions as OpenIM Chat's `/application/*` calls serve them (`internal/rpc/admin/application.go`,
 * `model/admin/application.go`), over the store's app versions: `url` is the download link,
 * `text` the release notes, `force` the forced update. The id is a Mongo ObjectID in hex.
 */

type Row = Record<string, unknown>;
type Platform = AppVersionRecord['platform'];

/** What OpenIM keeps per version that the store has no column for. */
interface VersionExtras {
  /** OpenIM's platform is free text; kept as sent when the store's platform list lacks it. */
  platform?: string;
  latest: boolean;
  hot: boolean;
}

const extras = new WeakMap<OpenImState, Map<number, VersionExtras>>();

function extrasOf(state: OpenImState, id: number): VersionExtras {
  let map = extras.get(state);
  if (!map) extras.set(state, (map = new Map()));
  let row = map.get(id);
  // Seeded versions carry neither flag: the newest of a platform is then its latest, by the sort.
  if (!row) map.set(id, (row = { latest: false, hot: false }));
  return row;
}

/**
 * An ObjectID's shape: four bytes of creation seconds, then the store's number in the last three
 * bytes, so the hex stays stable and sorts by creation as `_id` does.
 */
function objectId(record: AppVersionRecord): string {
  const seconds = Math.floor(Date.parse(record.publishTime) / 1000);
  return `${seconds.toString(16).padStart(8, '0')}0000000000${record.id.toString(16).padStart(6, '0')}`;
}

/** `primitive.ObjectIDFromHex`: 24 hex digits or 1001 "invalid id …". */
function parseObjectId(text: string): string {
  if (text.length !== 24) throw argsError(`invalid id the provided hex string is not a valid ObjectID`);
  if (!/^[0-9a-fA-F]{24}$/.test(text)) throw argsError(`invalid id encoding/hex: invalid byte`);
  return text.toLowerCase();
}

function platformOf(state: OpenImState, record: AppVersionRecord): string {
  return extrasOf(state, record.id).platform ?? record.platform;
}

function storePlatform(text: string): Platform | undefined {
  const lower = text.toLowerCase();
  return APP_PLATFORMS.find((p) => p === lower);
}

/** `db2pbApplication`. */
function versionRow(state: OpenImState, record: AppVersionRecord): Row {
  const more = extrasOf(state, record.id);
  return {
    id: objectId(record),
    platform: platformOf(state, record),
    version: record.version,
    url: record.downloadUrl,
    text: record.releaseNotes,
    force: record.forceUpdate,
    latest: more.latest,
    hot: more.hot,
    createTime: Date.parse(record.publishTime),
  };
}

/** The collection's sort: `latest` first, then the newest `_id`. */
function sorted(state: OpenImState, records: readonly AppVersionRecord[]): AppVersionRecord[] {
  const key = (r: AppVersionRecord) => objectId(r);
  return [...records].sort((a, b) => {
    const latest = Number(extrasOf(state, b.id).latest) - Number(extrasOf(state, a.id).latest);
    return latest !== 0 ? latest : key(a) < key(b) ? 1 : key(a) > key(b) ? -1 : 0;
  });
}

/** `/application/latest_version` (no token): the first by the sort, or `{}` with no version at all. */
function latestVersion(state: OpenImState, body: OpenImBody): Row {
  const platform = body.str('platform');
  const [first] = sorted(
    state,
    state.store.appVersions.all().filter((r) => platformOf(state, r) === platform),
  );
  // A message field left nil is written as null by encoding/json over the generated struct.
  return { version: first ? versionRow(state, first) : null };
}

/**
 * `/application/page_versions` (no token): `platform` a list (empty = all). The request has no
 * Check(): a missing pagination or a page below 1 is not refused, FindPage answers the total and
 * no rows (tools `db/mongoutil/util.go` `FindPage`).
 */
function pageVersions(state: OpenImState, body: OpenImBody): Row {
  const platforms = body.strList('platform') ?? [];
  const nested = body.obj('pagination');
  const pageNumber = nested?.int('pageNumber') ?? 0;
  const showNumber = nested?.int('showNumber') ?? 0;
  const rows = sorted(
    state,
    state.store.appVersions.all().filter((r) => platforms.length === 0 || platforms.includes(platformOf(state, r))),
  );
  if (pageNumber < 1 || showNumber < 1) return { total: rows.length, versions: null };
  const page = pageOf(rows, { pageNumber, showNumber });
  return { total: page.total, versions: listOrNull(page.list.map((r) => versionRow(state, r))) };
}

function duplicateVersion(state: OpenImState, platform: string, version: string, except?: number): void {
  if (
    state.store.appVersions.find((r) => r.id !== except && platformOf(state, r) === platform && r.version === version)
  ) {
    throw mongoError(
      `E11000 duplicate key error collection: openim_enterprise.application index: platform_1_version_1 dup key: { platform: "${platform}", version: "${version}" }`,
    );
  }
}

/**
 * `/application/add_version`: no check of any field (an empty version is stored); only the unique
 * (platform, version) index refuses.
 */
function addVersion(state: OpenImState, body: OpenImBody, now: number): undefined {
  const platform = body.str('platform');
  const version = body.str('version');
  duplicateVersion(state, platform, version);
  const own = storePlatform(platform);
  const builds = state.store.appVersions.all().filter((r) => r.platform === (own ?? 'android'));
  const record = state.store.appVersions.insert({
    // A platform the store does not list keeps a store value; the text OpenIM stored stays in the extras.
    platform: own ?? 'android',
    version,
    // OpenIM has no build number: the next one of the platform keeps the store's order.
    buildNumber: builds.reduce((max, r) => Math.max(max, r.buildNumber), 0) + 1,
    downloadUrl: body.str('url'),
    mirrorUrl: '',
    packageSize: null,
    forceUpdate: body.bool('force'),
    releaseNotes: body.str('text'),
    publishTime: new Date(now).toISOString(),
  });
  const more = extrasOf(state, record.id);
  more.latest = body.bool('latest');
  more.hot = body.bool('hot');
  if (!own) more.platform = platform;
  return undefined;
}

function findByObjectId(state: OpenImState, id: string): AppVersionRecord | undefined {
  return state.store.appVersions.find((r) => objectId(r) === id);
}

/** `/application/update_version`: wrapper fields; an unknown id is "not matched" (a Mongo error, 500). */
function updateVersion(state: OpenImState, body: OpenImBody): undefined {
  const id = parseObjectId(body.str('id'));
  const platform = body.optStr('platform');
  const version = body.optStr('version');
  const url = body.optStr('url');
  const text = body.optStr('text');
  const force = body.optBool('force');
  const latest = body.optBool('latest');
  const hot = body.optBool('hot');
  const changes = [platform, version, url, text, force, latest, hot].some((v) => v !== undefined);
  // An empty update never reaches Mongo, so an unknown id then succeeds.
  if (!changes) return undefined;
  const record = findByObjectId(state, id);
  if (!record) throw mongoError('mongo update not matched: mongo: no documents in result');
  const nextPlatform = platform ?? platformOf(state, record);
  duplicateVersion(state, nextPlatform, version ?? record.version, record.id);
  const more = extrasOf(state, record.id);
  if (platform !== undefined) {
    const own = storePlatform(platform);
    if (own) {
      record.platform = own;
      delete more.platform;
    } else more.platform = platform;
  }
  if (version !== undefined) record.version = version;
  if (url !== undefined) record.downloadUrl = url;
  if (text !== undefined) record.releaseNotes = text;
  if (force !== undefined) record.forceUpdate = force;
  if (latest !== undefined) more.latest = latest;
  if (hot !== undefined) more.hot = hot;
  return undefined;
}

/** `/application/delete_version` `{id: [..]}`: every id must be ObjectID hex; unknown ones are ignored. */
function deleteVersions(state: OpenImState, body: OpenImBody): undefined {
  const ids = (body.strList('id') ?? []).map(parseObjectId);
  const doomed = new Set(ids);
  state.store.appVersions.removeWhere((r) => doomed.has(objectId(r)));
  return undefined;
}

export function applicationRoutes(): OpenImRoute[] {
  return [
    {
      path: '/application/add_version',
      guard: 'admin',
      handle: ({ state, body, now }) => addVersion(state, body, now),
    },
    { path: '/application/update_version', guard: 'admin', handle: ({ state, body }) => updateVersion(state, body) },
    { path: '/application/delete_version', guard: 'admin', handle: ({ state, body }) => deleteVersions(state, body) },
    // Registered without mw.CheckAdmin: the apps themselves ask for updates.
    { path: '/application/latest_version', guard: 'none', handle: ({ state, body }) => latestVersion(state, body) },
    { path: '/application/page_versions', guard: 'none', handle: ({ state, body }) => pageVersions(state, body) },
  ];
}
