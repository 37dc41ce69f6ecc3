import type { AdminAccount } from '../store/accounts.js';
import type { SandboxStore } from '../store/sandbox-store.js';
import type { GroupRecord } from '../store/types.js';
import type { ShikuConfig } from './config.js';
import type { ShikuHandler } from './handler.js';
import { type RoomExtras, shikuRoom } from './records.js';
import { ROLE, roleOf } from './sessions.js';
import { InternalError, type Params, type Row, ServiceError, TEXT, failure, parseObjectId, success } from './wire.js';

/**
 * Room edits from the console (AC lines 319, 1140; RoomManagerImplForIM.update and delete). The
 * lock (`s`), the mute's end (`talkTime`) and Shiku's room switches have no column in the store,
 * so they live here; the mute itself is also the store's `muted`, which the contract's screens show.
 */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

/** RoomVO's switches, each -1 when not sent: update applies the first one sent and stops. */
const SWITCHES = ['showRead', 'isNeedVerify', 'isLook'] as const;
const LATER_SWITCHES = [
  'showMember',
  'allowSendCard',
  'allowInviteFriend',
  'allowUploadFile',
  'allowConference',
  'allowSpeakCourse',
] as const;

export class ShikuRooms {
  private readonly extras = new Map<number, RoomExtras>();

  /** The room as Shiku writes it; a mute whose end has passed is lifted in the store too. */
  view(group: GroupRecord, now: number): Row {
    const extra = this.extras.get(group.id);
    if (extra?.talkTime !== undefined && extra.talkTime > 0 && extra.talkTime * 1000 <= now && group.muted)
      group.muted = false;
    // A mute the contract's screens lifted or set since has no Shiku end of its own.
    if (extra?.talkTime !== undefined && extra.talkTime * 1000 > now !== group.muted) delete extra.talkTime;
    return shikuRoom(group, extra);
  }

  extra(groupId: number): RoomExtras {
    let extra = this.extras.get(groupId);
    if (!extra) this.extras.set(groupId, (extra = {}));
    return extra;
  }
}

/** A RoomVO int field as Spring binds it: absent or empty keeps the field's initial value. */
function field(params: Params, name: string, initial: number): number {
  return params.str(name) === '' ? initial : params.int(name);
}

export function registerRooms(map: Map, store: SandboxStore, rooms: ShikuRooms, config: ShikuConfig): void {
  const editor = (admin: AdminAccount | null) =>
    admin !== null && [ROLE.superAdmin, ROLE.admin].includes(roleOf(admin) as 5 | 6);
  const log = (admin: AdminAccount | null, action: 'update' | 'delete', detail: string, now: number) =>
    store.logOperation({ adminAccount: admin?.account ?? '', action, module: 'groups', detail, ip: '127.0.0.1' }, now);
  /** UserManager.get(userId): the console sends its own userId; a chat user's id works as well. */
  const userExists = (userId: number) =>
    store.accounts.find((a) => a.userId === String(userId)) !== undefined || store.users.get(userId) !== undefined;

  // AC updateRoom → RoomManagerImplForIM.update(user, roomVO, isAdmin 1, isConsole 1): one change per
  // call, in the source's order: a new name; a mute (talkTime > -2: seconds until which members
  // are muted, 0 lifts it); desc; showRead, isNeedVerify, isLook; maxUserSize (not below the members,
  // not above Config.maxUserSize); the lock `s`; the other switches. A notice is dropped: the
  // console's admin is not a member, and the NullPointerException that follows is swallowed.
  map('/console/updateRoom', ({ params, admin, now }) => {
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const userId = params.optionalInt('userId');
    if (userId === null || !userExists(userId)) return failure(now, '操作失败');
    const roomText = params.str('roomId');
    // A null roomId finds no room, and the first use of it is a NullPointerException.
    const id = roomText === '' ? null : parseObjectId('room', roomText);
    const group = id === null ? undefined : store.groups.get(id);
    const talkTime = field(params, 'talkTime', -2);
    const roomName = params.str('roomName');
    if (!group) throw new InternalError('java.lang.NullPointerException');
    const extra = rooms.extra(group.id);
    const done = (detail: string) => {
      log(admin, 'update', `updateRoom #${group.id}: ${detail}`, now);
      return success(now);
    };
    if (roomName !== '' && roomName !== group.name) {
      group.name = roomName;
      return done(`roomName=${roomName}`);
    }
    if (talkTime > -2) {
      extra.talkTime = talkTime;
      group.muted = talkTime * 1000 > now;
      return done(`talkTime=${talkTime}`);
    }
    const desc = params.str('desc');
    if (desc !== '') group.notice = desc;
    for (const name of SWITCHES) {
      const value = field(params, name, -1);
      if (value > -1 && !(name === 'showRead' && extra.flags?.[name] === value)) {
        extra.flags = { ...extra.flags, [name]: value };
        return done(`${name}=${value}`);
      }
    }
    const maxUserSize = params.optionalInt('maxUserSize');
    if (maxUserSize !== null && maxUserSize >= 0) {
      if (maxUserSize < group.memberCount) throw new ServiceError('群成员上限不能低于当前群成员人数');
      const limit = Number(config.read().maxUserSize);
      if (maxUserSize > limit) throw new ServiceError(`当前群成员人数上限${limit}`);
      group.maxMembers = maxUserSize;
    }
    const s = params.optionalInt('s');
    if (s !== null && s !== 0) {
      extra.locked = s === -1;
      return done(`s=${s}`);
    }
    for (const name of LATER_SWITCHES) {
      const value = field(params, name, -1);
      if (value !== -1) {
        extra.flags = { ...extra.flags, [name]: value };
        return done(`${name}=${value}`);
      }
    }
    return done(
      [desc && `desc=${desc}`, maxUserSize !== null && `maxUserSize=${maxUserSize}`].filter(Boolean).join(', ') ||
        'nothing',
    );
  });

  // AC deleteRoom: admin or super admin; then RoomManagerImplForIM.delete(roomId, userId): an unknown
  // room is no error; a known one needs `userId` to be the owner or to hold role 5 or 6, else the
  // failure "暂无权限解散群组". The room is removed: the store keeps it dissolved (as the contract's
  // dissolve does), and this dialect's roomList and getRoomMember no longer find it.
  map('/console/deleteRoom', ({ params, admin, now }) => {
    if (!editor(admin)) return failure(now, TEXT.noPermission);
    const roomText = params.str('roomId');
    const userId = params.int('userId', 0);
    if (!/^[0-9a-fA-F]{24}$/.test(roomText))
      return failure(now, `invalid hexadecimal representation of an ObjectId: [${roomText}]`);
    const id = parseObjectId('room', roomText);
    const group = id === null ? undefined : store.groups.get(id);
    if (!group || group.status === 'dissolved') return success(now);
    const holder = store.accounts.find((a) => a.userId === String(userId) && a.status === 'enabled');
    const privileged = holder !== undefined && [5, 6].includes(roleOf(holder));
    const member = (store.members.get(group.id) ?? []).find((m) => m.userId === userId);
    if (!privileged && member?.role !== 'owner') return failure(now, '暂无权限解散群组');
    group.status = 'dissolved';
    group.memberCount = 0;
    store.members.set(group.id, []);
    store.defaultGroups.removeWhere((d) => d.groupId === group.id);
    log(admin, 'delete', `deleteRoom #${group.id}`, now);
    return success(now);
  });
}
