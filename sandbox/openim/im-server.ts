import type { GroupRecord } from '../store/types.js';
import type { GroupMember } from '../store/records.js';
import { OPENIM_CODES, OpenImError, argsError, noPermission, notFound } from './envelope.js';
import { listOrNull, type OpenImBody, type Pagination } from './request.js';
import type { OpenImRoute } from './call.js';
import { groupByID, groupInfo } from './default-groups.js';
import { IM_ADMIN_USER_ID, type OpenImState } from './state.js';

/**
 * OpenIM Server's group calls (`openimsdk/open-im-server` `internal/api/router.go`, the `/group`
 * routes; `internal/rpc/group/group.go`), as OpenIM's own admin front end makes them with the
 * `imToken` OpenIM Chat's admin login hands out. Same envelope and binder as the chat backend
 * (tools `apiresp`, `a2r`); every route takes a token (`GinParseToken`, whitelist `/auth/get_admin_token`
 * and `/auth/parse_token` only). The groups are the store's, so the default dialect sees the same rows.
 */

type Row = Record<string, unknown>;

/** `constant.GroupOwner` 100, `GroupAdmin` 60, `GroupOrdinaryUsers` 20 (protocol `constant/constant.go`). */
const ROLE_LEVEL = { owner: 100, admin: 60, member: 20 } as const;
/** A member's mute the store keeps without its end: shown as running until a fixed far day. */
const MUTED_UNTIL = Date.UTC(2099, 0, 1);

/** The RPCs' `Check()` (protocol `group/group.go`): plain errors, answered as 1001 with their text. */
function checkPagination(body: OpenImBody): Pagination {
  const nested = body.obj('pagination');
  if (!nested) throw argsError('pagination is empty');
  const pageNumber = nested.int('pageNumber');
  if (pageNumber < 1) throw argsError('pageNumber is invalid');
  return { pageNumber, showNumber: nested.int('showNumber') };
}

function requiredGroupID(body: OpenImBody): string {
  const groupID = body.str('groupID');
  if (groupID === '') throw argsError('groupID is empty');
  return groupID;
}

/**
 * One page as tools' `mongoutil.FindPage` and `datautil.Paginate` cut it: a `showNumber` of 0 or
 * less (the Check() leaves it unchecked) is an empty page, not every row.
 */
function page<T>(items: readonly T[], pagination: Pagination): T[] {
  if (pagination.showNumber <= 0) return [];
  const skip = (pagination.pageNumber - 1) * pagination.showNumber;
  return items.slice(skip, skip + pagination.showNumber);
}

/** The caller is OpenIM Server's admin (`authverify.IsAdmin`: its user id in `imAdminUserID`). */
const isAdmin = (userID: string) => userID === IM_ADMIN_USER_ID;

/** `CheckGroupAdmin`: an admin passes; anyone else must be the group's owner or admin. */
function checkGroupAdmin(state: OpenImState, groupID: string, userID: string): void {
  if (isAdmin(userID)) return;
  const member = membersOf(state, groupID).find((m) => String(m.userId) === userID);
  if (!member) throw noPermission('op user not in group');
  if (member.role === 'member') throw noPermission('no group owner or admin');
}

const membersOf = (state: OpenImState, groupID: string): GroupMember[] => {
  const group = groupByID(state, groupID);
  return group ? (state.store.members.get(group.id) ?? []) : [];
};

function ownerOf(state: OpenImState, group: GroupRecord): { userID: string; nickname: string } | null {
  const owner = (state.store.members.get(group.id) ?? []).find((m) => m.role === 'owner');
  if (!owner) return null;
  return { userID: String(owner.userId), nickname: state.store.users.get(owner.userId)?.nickname ?? '' };
}

/**
 * `/group/get_groups` (`GetGroups`): `groupID` finds that one group (dismissed or not; total = 0
 * or 1); otherwise `group_name` as a case-sensitive regex (no `i` option), dismissed groups left
 * out, newest first (`mgo/group.go` `Search`). Rows are `CMSGroup`: the `GroupInfo`, the owner
 * member's user id and nickname (`""` where the group has no owner member).
 */
function getGroups(state: OpenImState, body: OpenImBody): Row {
  const pagination = checkPagination(body);
  const groupID = body.str('groupID');
  let total: number;
  let groups: GroupRecord[];
  if (groupID !== '') {
    const group = groupByID(state, groupID);
    groups = group ? [group] : [];
    total = groups.length;
  } else {
    const name = body.str('groupName');
    let pattern: RegExp;
    try {
      pattern = new RegExp(name, 'u');
    } catch {
      throw new OpenImError(OPENIM_CODES.internal, `(BadValue) Regular expression is invalid: ${name}`, true);
    }
    const found = state.store.groups
      .all()
      .filter((g) => g.status !== 'dissolved' && pattern.test(g.name))
      .sort((a, b) => Date.parse(b.createTime) - Date.parse(a.createTime));
    total = found.length;
    groups = page(found, pagination);
  }
  return {
    total,
    groups: listOrNull(
      groups.map((group) => {
        const owner = ownerOf(state, group);
        return {
          groupInfo: groupInfo(group),
          groupOwnerUserName: owner?.nickname ?? '',
          groupOwnerUserID: owner?.userID ?? '',
        };
      }),
    ),
  };
}

/** `/group/get_groups_info` (`GetGroupsInfo`): `groupIDs` required; unknown ids are left out. */
function getGroupsInfo(state: OpenImState, body: OpenImBody): Row {
  const ids = body.strList('groupIDs');
  if (ids === null) throw argsError('GroupIDs is empty');
  if (ids.length === 0) throw argsError('groupID is empty');
  const groups = ids.flatMap((id) => {
    const group = groupByID(state, id);
    return group ? [groupInfo(group)] : [];
  });
  return { groupInfos: listOrNull(groups) };
}

/** `sdkws.GroupMemberFullInfo`; the nickname and face filled from the user (`PopulateGroupMember`). */
function memberInfo(state: OpenImState, groupID: string, member: GroupMember): Row {
  const user = state.store.users.get(member.userId);
  return {
    groupID,
    userID: String(member.userId),
    roleLevel: ROLE_LEVEL[member.role],
    joinTime: Date.parse(member.joinTime),
    nickname: user?.nickname ?? '',
    faceURL: user?.avatar ?? '',
    appMangerLevel: 0,
    joinSource: 0,
    operatorUserID: '',
    ex: '',
    muteEndTime: member.muted ? MUTED_UNTIL : 0,
    inviterUserID: '',
  };
}

/**
 * `/group/get_group_member_list` (`GetGroupMemberList`): the admin or a member of the group.
 * Without a keyword, the cached member ids paged (`PageGetGroupMember`); with one, a
 * case-sensitive regex over the member's nickname (`mgo/group_member.go` `SearchMember`). Either
 * way owners first, then admins, then members, each by join time (`memberSort`). An unknown group
 * has no members (total 0, `null`).
 */
function getGroupMemberList(state: OpenImState, body: OpenImBody, userID: string): Row {
  const groupID = requiredGroupID(body);
  const pagination = checkPagination(body);
  const filter = body.int('filter');
  if (filter < 0 || filter > 5) throw argsError('filter is invalid');
  const members = [...membersOf(state, groupID)].sort(
    (a, b) => ROLE_LEVEL[b.role] - ROLE_LEVEL[a.role] || Date.parse(a.joinTime) - Date.parse(b.joinTime),
  );
  if (!isAdmin(userID) && !members.some((m) => String(m.userId) === userID)) throw noPermission('not in group');
  const keyword = body.str('keyword');
  let pattern: RegExp | null = null;
  if (keyword !== '') {
    try {
      pattern = new RegExp(keyword, 'u');
    } catch {
      throw new OpenImError(OPENIM_CODES.internal, `(BadValue) Regular expression is invalid: ${keyword}`, true);
    }
  }
  const found = pattern
    ? members.filter((m) => pattern.test(state.store.users.get(m.userId)?.nickname ?? ''))
    : members;
  return {
    total: found.length,
    members: listOrNull(page(found, pagination).map((m) => memberInfo(state, groupID, m))),
  };
}

/**
 * `/group/mute_group`, `/group/cancel_mute_group`: the group's status set to 3, or back to 0,
 * whatever it was (a dismissed group muted or unmuted is listed again). An unknown group: the
 * update matches nothing (1004).
 */
function setMuted(state: OpenImState, body: OpenImBody, userID: string, muted: boolean): undefined {
  const groupID = requiredGroupID(body);
  checkGroupAdmin(state, groupID, userID);
  const group = groupByID(state, groupID);
  if (!group) throw notFound('record not found');
  group.muted = muted;
  group.status = 'normal';
  return undefined;
}

/**
 * `/group/dismiss_group` (`DismissGroup`): the owner or an admin; an unknown group (no owner
 * member) 1004; already dismissed 1204 unless `deleteMember`; `deleteMember` also removes the
 * members. The chat backend's default-group list keeps the id (it is OpenIM Chat's, not Server's).
 */
function dismissGroup(state: OpenImState, body: OpenImBody, userID: string): undefined {
  const groupID = requiredGroupID(body);
  const group = groupByID(state, groupID);
  const owner = group ? ownerOf(state, group) : null;
  if (!group || !owner) throw notFound('mongo: no documents in result');
  if (!isAdmin(userID) && owner.userID !== userID) throw noPermission('not group owner');
  const deleteMember = body.bool('deleteMember');
  if (!deleteMember && group.status === 'dissolved')
    throw new OpenImError(OPENIM_CODES.dismissedAlready, 'group status is dismissed');
  group.status = 'dissolved';
  group.muted = false;
  if (deleteMember) {
    state.store.members.set(group.id, []);
    group.memberCount = 0;
  }
  return undefined;
}

export function imServerRoutes(): OpenImRoute[] {
  return [
    { path: '/group/get_groups', guard: 'im', handle: ({ state, body }) => getGroups(state, body) },
    { path: '/group/get_groups_info', guard: 'im', handle: ({ state, body }) => getGroupsInfo(state, body) },
    {
      path: '/group/get_group_member_list',
      guard: 'im',
      handle: ({ state, body, userID }) => getGroupMemberList(state, body, userID),
    },
    {
      path: '/group/mute_group',
      guard: 'im',
      handle: ({ state, body, userID }) => setMuted(state, body, userID, true),
    },
    {
      path: '/group/cancel_mute_group',
      guard: 'im',
      handle: ({ state, body, userID }) => setMuted(state, body, userID, false),
    },
    {
      path: '/group/dismiss_group',
      guard: 'im',
      handle: ({ state, body, userID }) => dismissGroup(state, body, userID),
    },
  ];
}
