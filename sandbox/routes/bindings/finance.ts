import { randomBytes } from 'node:crypto';
import type { WithdrawalReviewAnswer, WithdrawalSyncAnswer } from '../../../server/contract/index.js';
import {
  APP_VERSIONS,
  BILLING_RECORDS,
  GROUP_RED_ENVELOPES,
  PERSONAL_RED_ENVELOPES,
  PUSH_CONFIG,
  RECHARGE_CHANNELS,
  SMS_CONFIG,
  WITHDRAWAL_CONFIG,
  WITHDRAWAL_REVIEW,
} from '../../../server/contract/index.js';
import { badRequest } from '../../errors.js';
import type { SandboxStore } from '../../store/sandbox-store.js';
import type { AppVersionRecord, RechargeChannelRecord } from '../../store/records.js';
import type { WithdrawalRecord } from '../../store/types.js';
import type { ListBinding, SettingsBinding } from '../resources.js';
import { listBinding } from '../resources.js';

/** Finance lists and settings, and the app settings pages with their test calls. */

function minNotAboveMax(record: Record<string, unknown>): void {
  const min = Number(record.minAmount);
  const max = Number(record.maxAmount);
  if (Number.isFinite(min) && Number.isFinite(max) && min > max)
    throw badRequest('The minimum amount must not exceed the maximum');
}

export function financeBindings(store: SandboxStore): {
  list: Record<string, ListBinding<never>>;
  settings: Record<string, SettingsBinding>;
} {
  const review: ListBinding<WithdrawalRecord> = {
    collection: store.withdrawals,
    // Not a screen of its own: the gateway reads one application by it before holding its approval.
    detail: (item) => item,
    actions: {
      approve: ({ ids, ctx }): WithdrawalReviewAnswer => ({
        updated: store.ledger.approve(ids ?? [], ctx.admin.account, ctx.now),
      }),
      reject({ ids, inputs, ctx }): WithdrawalReviewAnswer {
        const reason = String(inputs.reason).trim();
        if (reason === '') throw badRequest('A reason is required to reject a withdrawal');
        return { updated: store.ledger.reject(ids ?? [], ctx.admin.account, reason, ctx.now) };
      },
      syncCashWithdrawal: ({ ctx }): WithdrawalSyncAnswer => ({ synced: store.syncWithdrawals(ctx.now) }),
    },
  };

  const channels: ListBinding<RechargeChannelRecord> = {
    collection: store.rechargeChannels,
    prepare(values, _ctx, existing) {
      minNotAboveMax({ ...existing, ...values });
    },
  };

  const versions: ListBinding<AppVersionRecord> = {
    collection: store.appVersions,
    prepare(values, _ctx, existing) {
      if (typeof values.version === 'string' && !/^\d+(\.\d+){1,3}([-+][0-9A-Za-z.]+)?$/.test(values.version.trim())) {
        throw badRequest('The version must look like 3.8.2');
      }
      const platform = values.platform ?? existing?.platform;
      const build = Number(values.buildNumber ?? existing?.buildNumber);
      const clash = store.appVersions.find(
        (v) => v.platform === platform && v.buildNumber === build && v.id !== existing?.id,
      );
      if (clash) throw badRequest(`Build ${build} already exists for ${String(platform)}`);
    },
  };

  const push: SettingsBinding = {
    actions: {
      testPush({ inputs }) {
        if (store.settings.pushConfig?.enabled !== true)
          throw badRequest('Push is switched off: switch it on and save first');
        const user = store.userByAccount(String(inputs.account).trim());
        if (!user) throw badRequest(`No user with the account ${String(inputs.account)}`);
        return { delivered: user.status === 'normal', messageId: `msg_${randomBytes(8).toString('hex')}` };
      },
    },
  };

  const sms: SettingsBinding = {
    actions: {
      testMessage({ inputs }) {
        if (store.settings.smsConfig?.enabled !== true)
          throw badRequest('SMS is switched off: switch it on and save first');
        const phone = String(inputs.phone).replace(/[\s-]/g, '');
        if (!/^\+?\d{6,15}$/.test(phone)) throw badRequest('手机号格式错误');
        return {
          delivered: true,
          requestId: randomBytes(16)
            .toString('hex')
            .replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-')
            .toUpperCase(),
        };
      },
    },
  };

  return {
    list: {
      [WITHDRAWAL_REVIEW.id]: listBinding(review),
      [RECHARGE_CHANNELS.id]: listBinding(channels),
      [PERSONAL_RED_ENVELOPES.id]: listBinding({ collection: store.personalRedEnvelopes }),
      [GROUP_RED_ENVELOPES.id]: listBinding({ collection: store.groupRedEnvelopes }),
      [BILLING_RECORDS.id]: listBinding({ collection: store.bills }),
      [APP_VERSIONS.id]: listBinding(versions),
    },
    settings: {
      [WITHDRAWAL_CONFIG.id]: { check: minNotAboveMax },
      [PUSH_CONFIG.id]: push,
      [SMS_CONFIG.id]: sms,
    },
  };
}
