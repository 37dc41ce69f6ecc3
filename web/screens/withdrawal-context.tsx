import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { PERMISSIONS, USERS, WITHDRAWAL_REVIEW, resourceCalls, type ListAnswer, type UserDetail } from '#contract';
import { api } from '../api/client.js';
import { permissions, unofferedScreens } from '../api/session.js';
import type { LabelT } from '../i18n/resources/index.js';
import { formatCount, formatDay } from '../lib/format.js';
import { localeOf, type Language } from '../lib/language.js';
import { language } from '../lib/settings.js';
import { recordMoney } from '../engine/shared/money-currency.js';
import { namesText } from '../engine/record/record-names.js';
import { resourceKeys, type Row } from '../engine/shared/queries.js';
import type { ActionContextProps, Described } from '../engine/shared/types.js';

/**
 * What a withdrawal reviewer sees before approving or rejecting (and before confirming someone
 * else's held approval): the money (amount, fee, what the user receives, in which currency) and
 * the user behind it: how old the account is, their withdrawals of the last 30 days, their
 * balance, and who else was paid to the same account. Each comes from a call the console already
 * makes (the user's detail, the review list filtered), and says so when it cannot be had.
 */

const DAY_MS = 86_400_000;
/** Payee look-up: one page of applications to the account, enough to name the users behind it. */
const PAYEE_PAGE = 100;

const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const net = (row: Row): number | null =>
  num(row.actualAmount) ?? (num(row.amount) !== null ? num(row.amount)! - (num(row.fee) ?? 0) : null);

/** Quiet reads: a reviewer's dialog shows "could not be read" in place, never a toast over it. */
async function quietList(params: Record<string, string | number>, signal: AbortSignal): Promise<ListAnswer<Row>> {
  const data = (await api.get<ListAnswer<Row>>(resourceCalls(WITHDRAWAL_REVIEW).list, params, { signal, quiet: true }))
    .data;
  return data && Array.isArray(data.list) ? data : { list: [], total: 0 };
}

/** "14 days", "5 months", "3 years", in the reader's language. */
function ageText(days: number, lang: Language): string {
  const [value, unit] =
    days < 60 ? [days, 'day'] : days < 730 ? [Math.floor(days / 30), 'month'] : [Math.floor(days / 365), 'year'];
  return new Intl.NumberFormat(localeOf(lang), { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

function Fact({ label, name, children }: { label: string; name: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-500">{label}</dt>
      <dd className="min-w-0 break-words text-slate-800" data-review={name}>
        {children}
      </dd>
    </div>
  );
}

/** A look-up's value, or why there is none. */
function lookUp<T>(
  t: LabelT,
  query: { isPending: boolean; isError: boolean; data?: T },
  allowed: 'yes' | 'forbidden' | 'unoffered',
  show: (data: T) => ReactNode,
): ReactNode {
  if (allowed === 'forbidden') return <span className="text-slate-500">{t('review.notPermitted')}</span>;
  if (allowed === 'unoffered') return <span className="text-slate-500">{t('review.notOffered')}</span>;
  if (query.isError) return <span className="text-red-700">{t('review.failed')}</span>;
  if (query.isPending || query.data === undefined) return <span className="text-slate-500">{t('review.loading')}</span>;
  return show(query.data);
}

function MoneyFacts({ row, t, lang }: { row: Row; t: LabelT; lang: Language }) {
  const money = (value: number | null) => (value === null ? '—' : recordMoney(value, row.currency, lang));
  return (
    <>
      <Fact label={t('review.amount')} name="amount">
        {money(num(row.amount))}
      </Fact>
      <Fact label={t('review.fee')} name="fee">
        {money(num(row.fee))}
      </Fact>
      <Fact label={t('review.net')} name="net">
        <strong>{money(net(row))}</strong>
      </Fact>
      <Fact label={t('review.currency')} name="currency">
        {typeof row.currency === 'string' && row.currency !== '' ? row.currency : t('review.unknownCurrency')}
      </Fact>
    </>
  );
}

function UserFacts({ row, resource, t, lang }: { row: Row; resource: Described; t: LabelT; lang: Language }) {
  const account = typeof row.userAccount === 'string' ? row.userAccount : '';
  const userId = row.userId;
  const payee = typeof row.payeeAccount === 'string' ? row.payeeAccount : '';
  const filters = new Set(resource.fields.filter((f) => f.filter).map((f) => f.key));
  const held = permissions.value ?? [];
  const usersAllowed =
    unofferedScreens.value.has(USERS.id) || userId === undefined
      ? 'unoffered'
      : held.includes(PERMISSIONS.userProfile)
        ? 'yes'
        : 'forbidden';
  const historyAllowed = filters.has('userAccount') && account ? 'yes' : 'unoffered';
  const payeeAllowed = filters.has('payeeAccount') && payee ? 'yes' : 'unoffered';

  const user = useQuery({
    queryKey: resourceKeys.detail(USERS, userId),
    queryFn: async ({ signal }) =>
      (await api.get<UserDetail>(resourceCalls(USERS).detail, { id: String(userId) }, { signal, quiet: true }))
        .data as UserDetail,
    enabled: usersAllowed === 'yes',
    retry: false,
  });
  // The 30 days end today in the reader's calendar; the list filters by whole days.
  const since = new Date(Date.now() - 30 * DAY_MS).toISOString().slice(0, 10);
  const history = useQuery({
    queryKey: resourceKeys.list(WITHDRAWAL_REVIEW, { review: 'history', userAccount: account, createTimeFrom: since }),
    queryFn: ({ signal }) =>
      quietList({ pageNum: 1, pageSize: 1, userAccount: account, createTimeFrom: since }, signal),
    enabled: historyAllowed === 'yes',
    retry: false,
  });
  const samePayee = useQuery({
    queryKey: resourceKeys.list(WITHDRAWAL_REVIEW, { review: 'payee', payeeAccount: payee }),
    queryFn: ({ signal }) => quietList({ pageNum: 1, pageSize: PAYEE_PAGE, payeeAccount: payee }, signal),
    enabled: payeeAllowed === 'yes',
    retry: false,
  });

  const registered = (detail: UserDetail) => {
    const time = typeof detail.user.registerTime === 'string' ? Date.parse(detail.user.registerTime) : Number.NaN;
    if (Number.isNaN(time)) return '—';
    const days = Math.max(0, Math.floor((Date.now() - time) / DAY_MS));
    return t('review.accountAgeValue', {
      age: ageText(days, lang),
      date: formatDay(new Date(time).toISOString().slice(0, 10), lang),
    });
  };
  const others = (answer: ListAnswer<Row>) => {
    const names = [
      ...new Set(answer.list.map((r) => String(r.userAccount ?? '')).filter((name) => name !== '' && name !== account)),
    ];
    if (names.length === 0) return t('review.samePayeeNone');
    const shown = namesText(t, names);
    // A page short of the whole list may not name everyone.
    return (
      <strong className="text-amber-800">
        {formatCount(names.length, lang)}:{' '}
        {answer.total > answer.list.length ? t('review.samePayeeMore', { names: shown }) : shown}
      </strong>
    );
  };

  return (
    <>
      <Fact label={t('review.accountAge')} name="account-age">
        {lookUp(t, user, usersAllowed, registered)}
      </Fact>
      <Fact label={t('review.last30')} name="last-30-days">
        {lookUp(t, history, historyAllowed, (answer) =>
          t('review.last30Value', {
            count: answer.total,
            sum: recordMoney(num(answer.totals?.amount) ?? 0, row.currency, lang),
          }),
        )}
      </Fact>
      <Fact label={t('review.balance')} name="balance">
        {lookUp(t, user, usersAllowed, (detail) => recordMoney(num(detail.wallet?.balance) ?? 0, row.currency, lang))}
      </Fact>
      <Fact label={t('review.samePayee')} name="same-payee">
        {lookUp(t, samePayee, payeeAllowed, others)}
      </Fact>
    </>
  );
}

/** A selection's sums, per currency: what approving all of them pays out. */
function Totals({ rows, t, lang }: { rows: readonly Row[]; t: LabelT; lang: Language }) {
  const sums = new Map<string, { amount: number; fee: number; net: number }>();
  for (const row of rows) {
    const currency = typeof row.currency === 'string' ? row.currency : '';
    const sum = sums.get(currency) ?? { amount: 0, fee: 0, net: 0 };
    sum.amount += num(row.amount) ?? 0;
    sum.fee += num(row.fee) ?? 0;
    sum.net += net(row) ?? 0;
    sums.set(currency, sum);
  }
  return (
    <section
      className="rounded-md border border-slate-200 px-3 py-2 text-sm"
      aria-label={t('review.total', { count: rows.length })}
      data-testid="review-total"
    >
      {/* Not a heading: the dialog's question is the one heading it has. */}
      <p className="mb-1 font-medium text-slate-800">{t('review.total', { count: rows.length })}</p>
      {[...sums].map(([currency, sum]) => (
        <dl key={currency} className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5" data-currency={currency}>
          <Fact label={t('review.amount')} name="total-amount">
            {recordMoney(sum.amount, currency, lang)}
          </Fact>
          <Fact label={t('review.fee')} name="total-fee">
            {recordMoney(sum.fee, currency, lang)}
          </Fact>
          <Fact label={t('review.net')} name="total-net">
            <strong>{recordMoney(sum.net, currency, lang)}</strong>
          </Fact>
        </dl>
      ))}
    </section>
  );
}

export function WithdrawalContext({ resource, rows, t }: ActionContextProps) {
  useSignals();
  const lang = language.value;
  const row = rows[0];
  if (!row) return null;
  if (rows.length > 1) return <Totals rows={rows} t={t} lang={lang} />;
  return (
    // Side by side on a laptop (the dialog is wide there), so every fact is in view at once
    // rather than in a short box that scrolls; one above the other on a phone.
    <div className="flex flex-col gap-2 text-sm lg:flex-row lg:items-start" data-testid="review-context">
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 rounded-md border border-slate-200 px-3 py-2 lg:flex-1">
        <MoneyFacts row={row} t={t} lang={lang} />
      </dl>
      <section className="rounded-md border border-slate-200 px-3 py-2 lg:flex-[1.4]" aria-label={t('review.about')}>
        <p className="mb-1 font-medium text-slate-800">{t('review.about')}</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5">
          <UserFacts row={row} resource={resource} t={t} lang={lang} />
        </dl>
      </section>
    </div>
  );
}
