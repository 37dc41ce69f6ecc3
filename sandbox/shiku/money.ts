import type { SandboxStore } from '../store/sandbox-store.js';
import { MINUTE } from '../lib/time.js';
import type { ShikuHandler } from './handler.js';
import { ROLE, roleOf } from './sessions.js';
import {
  InternalError,
  type Row,
  TEXT,
  failure,
  objectId,
  pageOf,
  pageResult,
  parseObjectId,
  seconds,
  success,
  yuan,
} from './wire.js';

/** Red packet receipts, payee cards and the manual credit (AC lines 1099, 2435, 3610). */

type Map = (path: string, handler: ShikuHandler, methods?: readonly ('GET' | 'POST')[]) => void;

/** The desc Shiku writes on a console credit; the sandbox files it as an `adjust` bill under it. */
export const CONSOLE_RECHARGE_DESC = '后台余额充值';

/** `new ObjectId(text)` refuses anything but 24 hex digits. */
function hex(text: string): string {
  if (!/^[0-9a-fA-F]{24}$/.test(text))
    throw new InternalError(`invalid hexadecimal representation of an ObjectId: [${text}]`);
  return text;
}

export function registerMoney(map: Map, store: SandboxStore): void {
  /**
   * RedReceive rows of one packet. A one-to-one packet has its receiver; a group packet's store
   * record has only how many took a share, so the first members by join order (not the sender)
   * are its receivers, an equal share each, a minute apart.
   */
  const receipts = (redId: string): Row[] => {
    const personalId = parseObjectId('redPacket', redId);
    if (personalId !== null) {
      const p = store.personalRedEnvelopes.get(personalId);
      const receiver = p ? store.userByAccount(p.receiverAccount) : undefined;
      if (!p || p.state !== 'received' || !receiver) return [];
      const sender = store.users.get(p.senderId);
      return [
        {
          id: objectId('redPacket', p.id, p.receiveTime ?? p.createTime),
          redId: redId.toLowerCase(),
          userId: receiver.id,
          sendId: p.senderId,
          userName: receiver.nickname,
          sendName: sender?.nickname ?? p.senderAccount,
          money: yuan(p.amount),
          time: seconds(p.receiveTime ?? p.createTime),
        },
      ];
    }
    const groupId = parseObjectId('groupRedPacket', redId);
    const p = groupId === null ? undefined : store.groupRedEnvelopes.get(groupId);
    if (!p) return [];
    const sender = store.users.get(p.senderId);
    const takers = (store.members.get(p.groupId) ?? [])
      .filter((m) => m.userId !== p.senderId)
      .slice(0, p.receivedCount);
    const share = Math.floor(p.amount / Math.max(1, p.count));
    const sent = Date.parse(p.createTime);
    return takers
      .map((m, index) => {
        const user = store.users.get(m.userId);
        const time = new Date(sent + (index + 1) * MINUTE).toISOString();
        return {
          id: objectId('groupRedPacket', p.id * 1000 + index + 1, time),
          redId: redId.toLowerCase(),
          userId: m.userId,
          sendId: p.senderId,
          userName: user?.nickname,
          sendName: sender?.nickname ?? p.senderAccount,
          money: yuan(share),
          time: seconds(time),
        };
      })
      .reverse();
  };

  // RedPacketManagerImpl.receiveWater: `redId` (default "", which is not an ObjectId: 1020101), newest first.
  map('/console/receiveWater', ({ params, now }) => {
    const redId = hex(params.str('redId'));
    const page = params.int('page', 0);
    const limit = params.int('limit', 10);
    const rows = receipts(redId);
    return pageResult(now, pageOf(rows, page, limit), rows.length);
  });

  // BankCardManagerImpl.getBankCardForce: the card of a withdrawal, deleted or not; no role check. The
  // sandbox's card is the withdrawal's payee; an id that names none answers no data.
  map('/console/recharge/audit/bankCardInfo', ({ params, now }) => {
    const id = parseObjectId('bankCard', hex(params.requiredStr('bankCardId')));
    const w = id === null ? undefined : store.withdrawals.get(id);
    if (!w || w.method !== 'bankCard') return success(now);
    return success(now, {
      id: objectId('bankCard', w.id, w.createTime),
      uid: w.userId,
      userName: w.payeeName,
      cardNo: w.payeeAccount,
      cardName: w.payeeName,
      // BankCard.cardType: 1 a debit card, the only kind a withdrawal goes to.
      cardType: 1,
      bankBrandName: w.bankName ?? undefined,
      time: seconds(w.createTime),
      isDeleted: 0,
    });
  });

  // AC Recharge: super admin only; `money` (yuan, a Double that may be absent) and `userId` (an int
  // without default: absent is an IllegalStateException, 1020101). Credits the wallet and answers
  // the new balance in `data`. Absent money is a NullPointerException caught with no message.
  map('/console/Recharge', ({ params, admin, now }) => {
    if (!params.has('userId') || params.str('userId') === '')
      throw new InternalError("Optional int parameter 'userId' is present but cannot be translated into a null value");
    const userId = params.int('userId');
    const rawMoney = params.str('money');
    if (rawMoney !== '' && !Number.isFinite(Number(rawMoney)))
      throw new InternalError(`For input string: "${rawMoney}"`);
    if (admin === null || roleOf(admin) !== ROLE.superAdmin) return failure(now, TEXT.noPermission);
    const user = store.users.get(userId);
    if (!user) return failure(now, '充值失败, 用户不存在!');
    if (rawMoney === '') return { resultCode: 0, currentTime: now };
    // The store counts fen: a credit of a fraction of a fen is rounded to the nearest one.
    const fen = Math.round(Number(rawMoney) * 100);
    try {
      store.ledger.post(user, 'adjust', fen, now, CONSOLE_RECHARGE_DESC);
    } catch (error) {
      return failure(now, error instanceof Error ? error.message : String(error));
    }
    store.logOperation(
      {
        adminAccount: admin.account,
        action: 'update',
        module: 'userBalance',
        detail: `Recharge #${user.id}: ${yuan(fen)}`,
        ip: '127.0.0.1',
      },
      now,
    );
    return success(now, yuan(user.balance));
  });
}
