import { useId, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { GroupDetail, UserDetail } from '#contract';
import { fieldLabel } from '../engine/shared/labels.js';
import { moneyWithCurrency } from '../engine/shared/money-currency.js';
import { recordHref, useRecordLinks } from '../engine/record/record-links.js';
import type { DetailRendererProps } from '../engine/shared/types.js';
import type { LabelT, LabelKey } from '../i18n/resources/index.js';
import { formatDateTime } from '../lib/format.js';
import { language } from '../lib/settings.js';

/**
 * The sections a user's and a group's pages add from their detail answers: a user's ban, wallet,
 * groups, friends (only from a backend that keeps them), moments and recent logins; a group's members. Groups and members link to their pages.
 */

function Empty({ t }: { t: LabelT }) {
  return <p className="py-3 text-center text-sm text-slate-500">{t('detail.empty')}</p>;
}

function Section({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="rounded-md border border-slate-200 bg-white p-4" data-testid={testId}>
      <h2 id={id} className="mb-2 font-semibold text-slate-800">
        {title}
      </h2>
      {children}
    </section>
  );
}

interface Column<R> {
  label: string;
  value: (r: R) => ReactNode;
  numeric?: boolean;
}

function SimpleTable<R>({ rows, columns, t }: { rows: readonly R[]; columns: Column<R>[]; t: LabelT }) {
  if (rows.length === 0) return <Empty t={t} />;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-slate-500">
          <tr>
            {columns.map((c) => (
              <th key={c.label} scope="col" className={`px-2 py-1.5 font-medium ${c.numeric ? 'text-right' : ''}`}>
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
    </div>
  );
}

const role = (t: LabelT, r: string) => t(`detail.role.${r}` as LabelKey);

/** A roster can list a contact once per group it is filed under (ejabberd does): one row per contact. */
function oneEach<R extends { account: string }>(rows: readonly R[]): R[] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.account) && (seen.add(r.account), true));
}

const SUBSCRIPTIONS: readonly string[] = ['none', 'to', 'from', 'both'];
/** XMPP's four subscription states are labelled; any other word a backend uses is shown as it comes. */
const subscription = (t: LabelT, s: string) =>
  SUBSCRIPTIONS.includes(s) ? t(`detail.subscription.${s}` as LabelKey) : s;

/** A record of another resource by name, linking to its page when the administrator may open it. */
function Linked({ href, children }: { href: string | null; children: ReactNode }) {
  return href ? (
    <Link href={href} className="text-primary underline-offset-2 hover:underline" data-record-link={href}>
      {children}
    </Link>
  ) : (
    <>{children}</>
  );
}

/** Members (and friends) shown before "Show all": a large group has hundreds. */
export const MEMBERS_SHOWN = 20;

export function UserDetailView({ data, t, related }: DetailRendererProps) {
  const links = useRecordLinks();
  const detail = (data ?? {}) as Partial<UserDetail>;
  const wallet = detail.wallet;
  const moments = detail.moments ?? [];
  const ban = detail.ban;
  const friends = detail.friends && oneEach(detail.friends);
  // A shared roster of the whole host (ejabberd's @all@) makes every account a contact: a first few.
  const [allFriends, setAllFriends] = useState(false);
  return (
    <>
      {ban && (
        // The status says "Banned"; this says why, since when and by whom, before anything else.
        <Section title={t('detail.ban')} testId="user-ban">
          <dl className="grid gap-3 text-sm sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
            {(
              [
                ['field.reason', ban.reason, 'reason'],
                ['detail.banTime', ban.time ? formatDateTime(ban.time, language.value) : '', 'time'],
                ['detail.bannedBy', ban.by, 'by'],
              ] as const
            ).map(([k, v, name]) => (
              <div key={k}>
                <dt className="text-xs text-slate-500">{t(k)}</dt>
                <dd className="break-words text-slate-800" data-ban={name}>
                  {v || '—'}
                </dd>
              </div>
            ))}
          </dl>
        </Section>
      )}
      <Section title={t('detail.wallet')} testId="user-wallet">
        {wallet ? (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
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
                <dd className="text-lg font-semibold tabular-nums" data-wallet={k}>
                  {moneyWithCurrency(v)}
                </dd>
              </div>
            ))}
          </dl>
        ) : (
          <Empty t={t} />
        )}
      </Section>
      <Section title={`${t('detail.groups')} (${detail.groups?.length ?? 0})`} testId="user-groups">
        <SimpleTable
          t={t}
          rows={detail.groups ?? []}
          columns={[
            {
              label: fieldLabel(t, 'groupName'),
              value: (g) => <Linked href={recordHref(links, 'groups', g.id)}>{g.name}</Linked>,
            },
            { label: t('detail.role'), value: (g) => role(t, g.role) },
            { label: t('detail.joinTime'), value: (g) => formatDateTime(g.joinTime, language.value) },
          ]}
        />
      </Section>
      {/* Absent, not empty, where the backend keeps no contact list: no section then, rather than a false "none". */}
      {friends && (
        <Section title={`${t('detail.friends')} (${friends.length})`} testId="user-friends">
          <SimpleTable
            t={t}
            rows={allFriends ? friends : friends.slice(0, MEMBERS_SHOWN)}
            columns={[
              { label: fieldLabel(t, 'account'), value: (f) => f.account },
              { label: fieldLabel(t, 'nickname'), value: (f) => f.nickname },
              { label: t('detail.subscription'), value: (f) => subscription(t, f.subscription) },
            ]}
          />
          {!allFriends && friends.length > MEMBERS_SHOWN && (
            <button type="button" className="btn mt-2" onClick={() => setAllFriends(true)} data-testid="friends-all">
              {t('detail.showAll', { count: friends.length })}
            </button>
          )}
        </Section>
      )}
      <Section title={t('detail.moments')} testId="user-moments">
        {moments.length === 0 ? (
          <Empty t={t} />
        ) : (
          <ul className="flex flex-col gap-2">
            {moments.map((m) => (
              <li key={m.id} className="rounded-md border border-slate-200 p-3 text-sm">
                <p className="break-words whitespace-pre-wrap">{m.content}</p>
                <p className="mt-1 text-xs text-slate-500">
                  {formatDateTime(m.createTime, language.value)} · {t('detail.likes')} {m.likes} ·{' '}
                  {t('detail.comments')} {m.comments}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Section>
      {/* The login records list says the same at more length; an administrator who may not open it still sees these. */}
      {!related.has('loginRecords') && (
        <Section title={t('detail.recentLogins')} testId="user-logins">
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
        </Section>
      )}
    </>
  );
}

export function GroupDetailView({ data, t }: DetailRendererProps) {
  const links = useRecordLinks();
  const [all, setAll] = useState(false);
  const detail = (data ?? {}) as Partial<GroupDetail>;
  const members = detail.members ?? [];
  return (
    <Section title={`${t('detail.members')} (${members.length})`} testId="group-members">
      <SimpleTable
        t={t}
        rows={all ? members : members.slice(0, MEMBERS_SHOWN)}
        columns={[
          {
            label: fieldLabel(t, 'account'),
            value: (m) => <Linked href={recordHref(links, 'users', m.userId)}>{m.account}</Linked>,
          },
          { label: fieldLabel(t, 'nickname'), value: (m) => m.nickname },
          { label: t('detail.role'), value: (m) => role(t, m.role) },
          { label: t('detail.joinTime'), value: (m) => formatDateTime(m.joinTime, language.value) },
          { label: fieldLabel(t, 'muted'), value: (m) => t(m.muted ? 'engine.yes' : 'engine.no') },
        ]}
      />
      {!all && members.length > MEMBERS_SHOWN && (
        <button type="button" className="btn mt-2" onClick={() => setAll(true)} data-testid="members-all">
          {t('detail.showAll', { count: members.length })}
        </button>
      )}
    </Section>
  );
}
