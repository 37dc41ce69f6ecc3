import { randomBytes } from 'node:crypto';
import { ADMINS, GOOGLE_VERIFY, OPERATION_LOG } from '../../../server/contract/index.js';
import { CODES, SandboxError, badRequest } from '../../errors.js';
import { type AdminAccount, base32Secret, createAdmin, setPassword } from '../../store/accounts.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import { type Ctx, type ListBinding, listBinding } from '../resources.js';
import { verifyTotp } from '../../lib/totp.js';

/** Administrators, the operation log and Google Authenticator binding. */

function adminWire(a: AdminAccount): Record<string, unknown> {
  return {
    id: a.id,
    account: a.account,
    nickname: a.nickname,
    permissions: [...a.permissions],
    status: a.status,
    googleBound: a.googleBound,
    lastLoginTime: a.lastLoginTime,
    createTime: a.createTime,
  };
}

function googleWire(a: AdminAccount): Record<string, unknown> {
  return {
    id: a.id,
    account: a.account,
    googleBound: a.googleBound,
    googlePending: a.googlePendingSecret !== null,
    boundTime: a.boundTime,
  };
}

/**
 * A new secret for the administrator to scan; it takes effect only once confirmBind proves the
 * phone holds it, so a mis-scanned code never locks anyone out (a reset keeps the old binding
 * until then).
 */
function newSecret(store: SandboxStore, a: AdminAccount): { id: number; secret: string; otpauthUrl: string } {
  const secret = base32Secret(randomBytes(20));
  a.googlePendingSecret = secret;
  const issuer = String(store.settings.siteFunctions?.chatRoomName ?? 'Chat Admin');
  const label = encodeURIComponent(`${issuer}:${a.account}`);
  return {
    id: a.id,
    secret,
    otpauthUrl: `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`,
  };
}

function accountOf(store: SandboxStore, id: number): AdminAccount {
  const a = store.accounts.get(id);
  if (!a) throw new SandboxError(CODES.notFound, `Administrator ${id} not found`);
  return a;
}

export function systemBindings(store: SandboxStore): Record<string, ListBinding<never>> {
  const accounts = store.accounts;
  const prepare = (values: Record<string, unknown>, _ctx: Ctx, existing: AdminAccount | null) => {
    if (typeof values.account === 'string') {
      const account = values.account.trim();
      values.account = account;
      if (!/^[A-Za-z0-9_.@-]{3,32}$/.test(account)) throw badRequest('Account: 3 to 32 letters, digits or _ . @ -');
      const clash = accounts.find((a) => a.account === account && a.id !== existing?.id);
      if (clash) throw badRequest(`The account ${account} already exists`);
    }
    if (existing?.builtIn) {
      if (values.account !== undefined && values.account !== existing.account)
        throw badRequest('The built-in accounts keep their names');
      if (values.status === 'disabled') throw badRequest('The built-in accounts cannot be disabled');
      if (
        Array.isArray(values.permissions) &&
        existing.account === 'admin' &&
        values.permissions.length !== existing.permissions.length
      ) {
        throw badRequest('The built-in admin keeps every permission');
      }
    }
    if (typeof values.password === 'string' && values.password.length < 6)
      throw badRequest('The password needs at least 6 characters');
  };

  const admins: ListBinding<AdminAccount> = {
    collection: accounts,
    wire: adminWire,
    prepare,
    create(values, ctx) {
      return createAdmin(
        accounts,
        {
          account: String(values.account),
          nickname: String(values.nickname),
          password: String(values.password),
          permissions: values.permissions as string[],
          status: values.status as AdminAccount['status'],
        },
        ctx.now,
      );
    },
    update(item, values) {
      const { password: _ignored, ...rest } = values;
      Object.assign(item, rest);
      if (item.status !== 'enabled') store.sessions.revoke(item.id);
    },
    remove(ids) {
      for (const id of ids)
        if (accountOf(store, id).builtIn)
          throw badRequest('The built-in admin and operator accounts cannot be deleted');
      for (const id of ids) store.sessions.revoke(id);
      return accounts.remove(ids);
    },
    actions: {
      resetPassword({ ids, inputs }) {
        for (const id of ids ?? []) {
          const a = accountOf(store, id);
          if (String(inputs.password).length < 6) throw badRequest('The password needs at least 6 characters');
          setPassword(a, String(inputs.password));
          store.sessions.revoke(a.id);
        }
        return { updated: ids?.length ?? 0 };
      },
      disable({ ids, ctx }) {
        for (const id of ids ?? []) {
          const a = accountOf(store, id);
          if (a.builtIn) throw badRequest('The built-in accounts cannot be disabled');
          if (a.id === ctx.admin.id) throw badRequest('You cannot disable your own account');
          a.status = 'disabled';
          store.sessions.revoke(a.id);
        }
        return { updated: ids?.length ?? 0 };
      },
      enable({ ids }) {
        for (const id of ids ?? []) accountOf(store, id).status = 'enabled';
        return { updated: ids?.length ?? 0 };
      },
    },
  };

  const google: ListBinding<AdminAccount> = {
    collection: accounts,
    wire: googleWire,
    actions: {
      bind({ ids }) {
        const a = accountOf(store, ids![0]!);
        if (a.googleBound) throw badRequest(`${a.account} is already bound; reset it instead`);
        return newSecret(store, a);
      },
      confirmBind({ ids, inputs, ctx }) {
        const a = accountOf(store, ids![0]!);
        if (a.googlePendingSecret === null)
          throw badRequest(`${a.account} has no binding waiting for a code; bind first`);
        if (!verifyTotp(a.googlePendingSecret, String(inputs.otpCode ?? ''), ctx.now)) throw badRequest('验证码错误');
        Object.assign(a, {
          googleSecret: a.googlePendingSecret,
          googlePendingSecret: null,
          googleBound: true,
          boundTime: new Date(ctx.now).toISOString(),
        });
        return { updated: 1 };
      },
      reset({ ids }) {
        return newSecret(store, accountOf(store, ids![0]!));
      },
      unbind({ ids }) {
        const a = accountOf(store, ids![0]!);
        Object.assign(a, { googleBound: false, googleSecret: null, googlePendingSecret: null, boundTime: null });
        return { updated: 1 };
      },
    },
  };

  return {
    [ADMINS.id]: listBinding(admins),
    [OPERATION_LOG.id]: listBinding({ collection: store.operationLog }),
    [GOOGLE_VERIFY.id]: listBinding(google),
  };
}
