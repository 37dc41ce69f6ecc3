import type { GroupRecord } from '../store/types.js';
import { argsError, duplicateKey, notFound } from './envelope.js';
import { keywordMatcher, listOrNull, pageOf, type OpenImBody } from './request.js';
import type { OpenImRoute } from './call.js';
import type { OpenImState } from './state.js';

/**
 * Groups every new user joins (`/default/group/*`: `internal/api/admin/admin.go`
 * `AddDefaultGroup`, `SearchDefaultGroup`; `internal/rpc/admin/register_add_group.go`;
 * `model/admin/register_add_group.go`), over the store's default groups. OpenIM Chat keeps only
 * the group ids; the group records are OpenIM Server's (`/group/get_groups_info`), which here
 * are the store's groups written as `sdkws.GroupInfo`.
 */

type Row = Record<string, unknown>;

/** OpenIM Server's group status (protocol `constant.GroupOk` 0, `GroupStatusDismissed` 2, `GroupStatusMuted` 3): one field for both. */
export const GROUP_STATUS = { normal: 0, dissolved: 2, muted: 3 } as const;
/** `constant.WorkingGroup`: the only type OpenIM Server creates. */
const WORKING_GROUP = 2;

export const groupByID = (state: OpenImState, groupID: string): GroupRecord | undefined =>
  /^[1-9]\d{0,15}$/.test(groupID) ? state.store.groups.get(Number(groupID)) : undefined;

/** `sdkws.GroupInfo` (protocol `sdkws/sdkws.proto`), every field written. */
export function groupInfo(group: GroupRecord): Row {
  const owner = String(group.ownerId);
  return {
    groupID: String(group.id),
    groupName: group.name,
    notification: group.notice,
    introduction: '',
    faceURL: group.avatar,
    ownerUserID: owner,
    createTime: Date.parse(group.createTime),
    memberCount: group.memberCount,
    ex: '',
    status:
      group.status === 'dissolved' ? GROUP_STATUS.dissolved : group.muted ? GROUP_STATUS.muted : GROUP_STATUS.normal,
    // The store keeps no creator: the owner is the one who made the group unless it was handed over.
    creatorUserID: owner,
    groupType: WORKING_GROUP,
    needVerification: 0,
    lookMemberInfo: 0,
    applyMemberFriend: 0,
    notificationUpdateTime: 0,
    notificationUserID: '',
  };
}

/** A default group OpenIM Server no longer knows: the id alone, every other field at its zero. */
function bareGroupInfo(groupID: string): Row {
  return {
    groupID,
    groupName: '',
    notification: '',
    introduction: '',
    faceURL: '',
    ownerUserID: '',
    createTime: 0,
    memberCount: 0,
    ex: '',
    status: 0,
    creatorUserID: '',
    groupType: 0,
    needVerification: 0,
    lookMemberInfo: 0,
    applyMemberFriend: 0,
    notificationUpdateTime: 0,
    notificationUserID: '',
  };
}

const defaultIDs = (state: OpenImState) => state.store.defaultGroups.all().map((row) => String(row.groupId));

/**
 * `/default/group/add`. The API asks OpenIM Server for the groups first and refuses when fewer
 * come back than were asked (an unknown id, and so a repeated one too: 1001 "group id not found");
 * then the RPC's Check() (`groupIDs` absent) and an id already listed (1003).
 */
function addDefaultGroups(state: OpenImState, body: OpenImBody, now: number): undefined {
  const ids = body.strList('groupIDs');
  const groups = new Map<string, GroupRecord>();
  for (const id of ids ?? []) {
    const group = groupByID(state, id);
    if (group) groups.set(id, group);
  }
  if ((ids ?? []).length !== groups.size) throw argsError('group id not found');
  // An empty list crosses gRPC as a nil one, which the RPC's Check() refuses like an absent one.
  if (ids === null || ids.length === 0) throw argsError('GroupIDs is empty');
  const listed = defaultIDs(state).filter((id) => ids.includes(id));
  if (listed.length > 0) throw duplicateKey(`group id existed, groupID=[${listed.join(' ')}]`);
  const last = state.store.defaultGroups.all().reduce((max, row) => Math.max(max, row.sort), 0);
  ids.forEach((id, i) => {
    const group = groups.get(id)!;
    // OpenIM keeps no order: new rows go after the store's own.
    state.store.defaultGroups.insert({
      groupId: group.id,
      groupName: group.name,
      sort: last + (i + 1) * 10,
      createTime: new Date(now).toISOString(),
    });
  });
  return undefined;
}

/** `/default/group/del`: every id must be listed, else 1004 naming the others. */
function delDefaultGroups(state: OpenImState, body: OpenImBody): undefined {
  const ids = body.strList('groupIDs');
  if (ids === null || ids.length === 0) throw argsError('GroupIDs is empty');
  if (new Set(ids).size !== ids.length) throw argsError('group ids is duplicate');
  const listed = new Set(defaultIDs(state));
  const missing = ids.filter((id) => !listed.has(id));
  if (missing.length > 0) throw notFound(`group id not found, groupID=[${missing.join(' ')}]`);
  const doomed = new Set(ids);
  state.store.defaultGroups.removeWhere((row) => doomed.has(String(row.groupId)));
  return undefined;
}

function findDefaultGroups(state: OpenImState): Row {
  return { groupIDs: listOrNull(defaultIDs(state)) };
}

/**
 * `/default/group/search`: the keyword is a regex over the group id only; the API builds the
 * answer itself (`apistruct.SearchDefaultGroupResp`) from a made, never nil, slice, so an empty
 * page is `[]` here, not `null`.
 */
function searchDefaultGroups(state: OpenImState, body: OpenImBody): Row {
  const pagination = body.pagination();
  const match = keywordMatcher(body.str('keyword'));
  const page = pageOf(
    defaultIDs(state).filter((id) => match(id)),
    pagination,
  );
  return {
    total: page.total,
    groups: page.list.map((id) => {
      const group = groupByID(state, id);
      return group ? groupInfo(group) : bareGroupInfo(id);
    }),
  };
}

export function defaultGroupRoutes(): OpenImRoute[] {
  return [
    {
      path: '/default/group/add',
      guard: 'admin',
      handle: ({ state, body, now }) => addDefaultGroups(state, body, now),
    },
    { path: '/default/group/del', guard: 'admin', handle: ({ state, body }) => delDefaultGroups(state, body) },
    { path: '/default/group/find', guard: 'admin', handle: ({ state }) => findDefaultGroups(state) },
    { path: '/default/group/search', guard: 'admin', handle: ({ state, body }) => searchDefaultGroups(state, body) },
  ];
}
