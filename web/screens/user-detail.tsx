import type { ReactElement } from 'react';
import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { GroupDetail, UserDetail } from '#contract';
import { FieldList } from '../engine/detail-drawer.js';
import { fieldLabel } from '../engine/labels.js';
import { formatMoney } from '../engine/money.js';
import { RecordHistory } from '../engine/record-history.js';
import type { DetailRendererProps } from '../engine/types.js';
import type { LabelT, LabelKey } from '../i18n/resources/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';

/** Custom detail views: a user's profile, wallet, moments, groups, logins and history; a group's members and history. */

const tabClass =
  'rounded-t-md px-3 py-2 text-sm text-slate-600 data-[selected]:border-b-2 data-[selected]:border-primary data-[selected]:font-medium data-[selected]:text-slate-900 data-[hover]:bg-slate-50 focus:outline-none data-[focus]:outline-2 data-[focus]:outline-primary';

function Empty({ t }: { t: LabelT }) {
  return <p className="py-4 text-center text-slate-500">{t('detail.empty')}</p>;
}

function SimpleTable<R>({ rows, columns, t }: { rows: readonly R[]; columns: { label: string; value: (r: R) => string; numeric?: boolean }[]; t: LabelT }) {
  if (rows.length === 0) return <Empty t={t} />;
  return (
    <table className="w-full text-left text-sm">
      <thead className="bg-slate-100 text-slate-600">
        <tr>
          {columns.map((c) => (
            <th key={c.label} scope="col" className={`px-2 py-1.5 ${c.numeric ? 'text-right' : ''}`}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} className="border-t border-slate-100">
            {columns.map((c) => (
              <td key={c.label} className={`px-2 py-1.5 ${c.numeric ? 'text-right tabular-nums' : ''}`}>
                {c.value(r)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const role = (t: LabelT, r: string) => t(`detail.role.${r}` as LabelKey);

export function UserDetailView({ resource, data, row, t }: DetailRendererProps) {
  const detail = (data ?? {}) as Partial<UserDetail>;
  const user = detail.user ?? row;
  const wallet = detail.wallet;
  const tabs: { key: LabelKey; body: ReactElement }[] = [
    { key: 'detail.profile', body: <FieldList resource={resource} record={user} /> },
    {
      key: 'detail.wallet',
      body: wallet ? (
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="user-wallet">
          {(
            [
              ['field.balance', wallet.balance],
              ['detail.frozen', wallet.frozen],
              ['detail.totalRecharge', wallet.totalRecharge],
              ['detail.totalWithdraw', wallet.totalWithdraw],
            ] as const
          ).map(([k, v]) => (
            <div key={k} className="rounded-md border border-slate-200 p-3">
              <dt className="text-xs text-slate-500">{t(k)}</dt>
              <dd className="text-lg font-semibold tabular-nums">{formatMoney(v)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <Empty t={t} />
      ),
    },
    {
      key: 'detail.moments',
      body:
        (detail.moments ?? []).length === 0 ? (
          <Empty t={t} />
        ) : (
          <ul className="flex flex-col gap-2">
            {(detail.moments ?? []).map((m) => (
              <li key={m.id} className="rounded-md border border-slate-200 p-3 text-sm">
                <p className="whitespace-pre-wrap break-words">{m.content}</p>
                <p className="mt-1 text-xs text-slate-500">
                  {formatDateTime(m.createTime, language.value)} · {t('detail.likes')} {m.likes} · {t('detail.comments')} {m.comments}
                </p>
              </li>
            ))}
          </ul>
        ),
    },
    {
      key: 'detail.groups',
      body: (
        <SimpleTable
          t={t}
          rows={detail.groups ?? []}
          columns={[
            { label: fieldLabel(t, 'id'), value: (g) => String(g.id), numeric: true },
            { label: fieldLabel(t, 'groupName'), value: (g) => g.name },
            { label: t('detail.role'), value: (g) => role(t, g.role) },
            { label: t('detail.joinTime'), value: (g) => formatDateTime(g.joinTime, language.value) },
          ]}
        />
      ),
    },
    {
      key: 'detail.recentLogins',
      body: (
        <SimpleTable
          t={t}
          rows={detail.recentLogins ?? []}
          columns={[
            { label: fieldLabel(t, 'time'), value: (l) => formatDateTime(l.time, language.value) },
            { label: fieldLabel(t, 'ip'), value: (l) => l.ip },
            { label: fieldLabel(t, 'device'), value: (l) => l.device },
            { label: fieldLabel(t, 'region'), value: (l) => l.region },
          ]}
        />
      ),
    },
    // Bans with their author and reason, edits with their values before and after: the audit trail's.
    { key: 'detail.history', body: <RecordHistory resource={resource} id={row.id} t={t} /> },
  ];
  return (
    <TabGroup>
      <TabList className="mb-3 flex flex-wrap gap-1 border-b border-slate-200">
        {tabs.map((tab) => (
          <Tab key={tab.key} className={tabClass}>
            {t(tab.key)}
          </Tab>
        ))}
      </TabList>
      <TabPanels>
        {tabs.map((tab) => (
          <TabPanel key={tab.key} data-testid={tab.key}>
            {tab.body}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}

export function GroupDetailView({ resource, data, row, t }: DetailRendererProps) {
  const detail = (data ?? {}) as Partial<GroupDetail>;
  return (
    <div className="flex flex-col gap-5">
      <FieldList resource={resource} record={detail.group ?? row} />
      <section aria-label={t('detail.members')}>
        <h3 className="mb-2 font-semibold text-slate-800">{`${t('detail.members')} (${detail.members?.length ?? 0})`}</h3>
        <SimpleTable
          t={t}
          rows={detail.members ?? []}
          columns={[
            { label: fieldLabel(t, 'id'), value: (m) => String(m.userId), numeric: true },
            { label: fieldLabel(t, 'account'), value: (m) => m.account },
            { label: fieldLabel(t, 'nickname'), value: (m) => m.nickname },
            { label: t('detail.role'), value: (m) => role(t, m.role) },
            { label: t('detail.joinTime'), value: (m) => formatDateTime(m.joinTime, language.value) },
            { label: fieldLabel(t, 'muted'), value: (m) => t(m.muted ? 'engine.yes' : 'engine.no') },
          ]}
        />
      </section>
      <section aria-label={t('detail.history')}>
        <h3 className="mb-2 font-semibold text-slate-800">{t('detail.history')}</h3>
        <RecordHistory resource={resource} id={row.id} t={t} />
      </section>
    </div>
  );
}
