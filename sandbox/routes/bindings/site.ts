import {
  ANNOUNCEMENTS,
  DEFAULT_AVATARS,
  DEFAULT_EMOJI,
  DEFAULT_FRIENDS,
  DEFAULT_GROUPS,
  DISCOVER_ENTRIES,
  INVITE_CODES,
  PRIVILEGED_USERS,
  SECURITY_QUESTIONS,
  SENSITIVE_WORDS,
} from '../../../server/contract/index.js';
import { CODES, SandboxError, badRequest } from '../../errors.js';
import { iso } from '../../lib/time.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type {
  AnnouncementRecord,
  InviteCodeRecord,
  PrivilegedUserRecord,
  SensitiveWordRecord,
} from '../../store/records.js';
import { inviteCode } from '../../store/seed-site.js';
import { findHits } from '../../store/words.js';
import { type ListBinding, listBinding } from '../resources.js';
import { setUserPrivileged } from './users.js';

/** The site-configuration lists: defaults for new users, questions, discover, announcements, codes, words, privileges. */

export function siteBindings(store: SandboxStore): Record<string, ListBinding<never>> {
  const userByAccount = (account: unknown) => {
    const user = store.userByAccount(String(account).trim());
    if (!user) throw badRequest(`No user with the account ${String(account)}`);
    return user;
  };

  const defaultFriends = {
    collection: store.defaultFriends,
    prepare(values: Record<string, unknown>) {
      if (values.userAccount === undefined) return;
      const user = userByAccount(values.userAccount);
      Object.assign(values, { userAccount: user.account, userId: user.id, nickname: user.nickname });
    },
  };

  const defaultGroups = {
    collection: store.defaultGroups,
    prepare(values: Record<string, unknown>) {
      if (values.groupId === undefined) return;
      const group = store.groups.get(Number(values.groupId));
      if (!group) throw badRequest(`No group with the id ${String(values.groupId)}`);
      if (group.status !== 'normal') throw badRequest(`The group ${group.name} has been dissolved`);
      values.groupName = group.name;
    },
  };

  const announcements: ListBinding<AnnouncementRecord> = {
    collection: store.announcements,
    prepare(values, ctx, existing) {
      // Publishing without a time publishes now.
      const published = values.published ?? existing?.published;
      const time = values.publishTime === undefined ? existing?.publishTime : values.publishTime;
      if (published === true && (time === null || time === undefined)) values.publishTime = iso(ctx.now);
    },
  };

  const inviteCodes: ListBinding<InviteCodeRecord> = {
    collection: store.inviteCodes,
    prepare(values, ctx) {
      if (typeof values.code !== 'string') return;
      const code = values.code.trim();
      // Codes are typed on phones at registration: letters and digits only, compared without case.
      if (!/^[A-Za-z0-9]{4,32}$/.test(code))
        throw new SandboxError(CODES.badRequest, 'An invitation code is 4 to 32 letters or digits', { field: 'code' });
      if (store.inviteCodes.find((c) => c.code.toLowerCase() === code.toLowerCase()))
        throw badRequest(`The code ${code} already exists`);
      const expireTime = (values.expireTime as string | null | undefined) ?? null;
      if (expireTime !== null && Date.parse(expireTime) <= ctx.now)
        throw badRequest('The expiry time must be in the future');
      values.code = code;
    },
    create: (values, ctx) =>
      store.inviteCodes.insert({
        code: values.code as string,
        status: 'unused',
        usedCount: 0,
        maxUses: Number(values.maxUses),
        usedBy: '',
        expireTime: (values.expireTime as string | null | undefined) ?? null,
        createTime: iso(ctx.now),
      }),
    actions: {
      generate({ inputs, ctx }) {
        const expireTime = (inputs.expireTime as string | null) ?? null;
        if (expireTime !== null && Date.parse(expireTime) <= ctx.now)
          throw badRequest('The expiry time must be in the future');
        const taken = new Set(store.inviteCodes.all().map((c) => c.code));
        const codes: string[] = [];
        while (codes.length < Number(inputs.count)) {
          const code = inviteCode(store.runtime);
          if (taken.has(code)) continue;
          taken.add(code);
          codes.push(code);
          store.inviteCodes.insert({
            code,
            status: 'unused',
            usedCount: 0,
            maxUses: Number(inputs.maxUses),
            usedBy: '',
            expireTime,
            createTime: iso(ctx.now),
          });
        }
        return { codes };
      },
      disable({ ids }) {
        let updated = 0;
        for (const id of ids ?? []) {
          const code = store.inviteCodes.get(id);
          if (code && code.status === 'unused') {
            code.status = 'disabled';
            updated++;
          }
        }
        return { updated };
      },
    },
  };

  const fold = (word: string) => word.normalize('NFKC').toLocaleLowerCase().trim();
  const sensitiveWords: ListBinding<SensitiveWordRecord> = {
    collection: store.sensitiveWords,
    prepare(values, _ctx, existing) {
      if (typeof values.word !== 'string') return;
      const word = values.word.trim();
      values.word = word;
      const key = fold(word);
      if (key === '') throw badRequest('此项不能为空');
      if (store.sensitiveWords.find((w) => fold(w.word) === key && w.id !== existing?.id))
        throw badRequest(`"${word}" is already on the list`);
    },
    actions: {
      batchAdd({ inputs, ctx }) {
        const known = new Set(store.sensitiveWords.all().map((w) => fold(w.word)));
        let added = 0;
        let skipped = 0;
        for (const line of inputs.words as string[]) {
          const word = line.trim();
          const key = fold(word);
          if (key === '' || word.length > 50 || known.has(key)) {
            skipped++;
            continue;
          }
          known.add(key);
          store.sensitiveWords.insert({
            word,
            category: inputs.category as SensitiveWordRecord['category'],
            createTime: iso(ctx.now),
          });
          added++;
        }
        return { added, skipped };
      },
      test: ({ inputs }) => ({ hits: findHits(store.sensitiveWords.all(), String(inputs.text)) }),
    },
  };

  const privilegedUsers: ListBinding<PrivilegedUserRecord> = {
    collection: store.privilegedUsers,
    prepare(values, _ctx, existing) {
      if (values.userAccount === undefined) return;
      const user = userByAccount(values.userAccount);
      const clash = store.privilegedUsers.find((p) => p.userId === user.id && p.id !== existing?.id);
      if (clash) throw badRequest(`${user.account} already has privileges`);
      Object.assign(values, { userAccount: user.account, userId: user.id, nickname: user.nickname });
    },
    create(values, ctx) {
      const record = store.privilegedUsers.insert({
        ...(values as Omit<PrivilegedUserRecord, 'id' | 'createTime'>),
        createTime: iso(ctx.now),
      });
      const user = store.users.get(record.userId);
      if (user) user.privileged = true;
      return record;
    },
    update(item, values, ctx) {
      const before = item.userId;
      Object.assign(item, values);
      if (before !== item.userId) {
        const old = store.users.get(before);
        if (old) old.privileged = false;
        const user = store.users.get(item.userId);
        if (user) setUserPrivileged(store, user, true, ctx.now);
      }
    },
    remove(ids) {
      for (const id of ids) {
        const user = store.users.get(store.privilegedUsers.get(id)?.userId ?? 0);
        if (user) user.privileged = false;
      }
      return store.privilegedUsers.remove(ids);
    },
  };

  return {
    [DEFAULT_FRIENDS.id]: listBinding(defaultFriends),
    [DEFAULT_GROUPS.id]: listBinding(defaultGroups),
    [DEFAULT_AVATARS.id]: listBinding({ collection: store.defaultAvatars }),
    [DEFAULT_EMOJI.id]: listBinding({ collection: store.defaultEmoji }),
    [SECURITY_QUESTIONS.id]: listBinding({ collection: store.securityQuestions }),
    [DISCOVER_ENTRIES.id]: listBinding({ collection: store.discover }),
    [ANNOUNCEMENTS.id]: listBinding(announcements),
    [INVITE_CODES.id]: listBinding(inviteCodes),
    [SENSITIVE_WORDS.id]: listBinding(sensitiveWords),
    [PRIVILEGED_USERS.id]: listBinding(privilegedUsers),
  };
}
