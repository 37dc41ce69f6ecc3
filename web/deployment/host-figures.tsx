import type { MonitoringAnswer } from '#contract';
import { useT } from '../i18n/index.js';
import { useLocale } from '../ui/panel.js';
import { percent } from './history.js';
import { formatPercent, hostSize, uptimeParts } from './format.js';

/** Past these a gauge turns amber, then red: the levels an operator acts on. */
const WARN = 75;
const ALERT = 90;

function Gauge({ value, label }: { value: number; label: string }) {
  const color = value >= ALERT ? 'bg-red-500' : value >= WARN ? 'bg-amber-500' : 'bg-primary';
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(value)}
      className="mt-2 h-2 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div className={`h-full ${color}`} style={{ width: `${Math.min(100, Math.max(0, value))}%` }} />
    </div>
  );
}

function Figure({
  title,
  value,
  detail,
  gauge,
  testId,
}: {
  title: string;
  value: string;
  detail: string;
  gauge?: number;
  testId: string;
}) {
  return (
    <div className="rounded-md border border-slate-100 bg-slate-50 p-3" data-testid={testId}>
      <dt className="text-sm text-slate-600">{title}</dt>
      <dd className="mt-1">
        <span className="text-2xl font-semibold text-slate-900 tabular-nums">{value}</span>
        <span className="mt-1 block text-sm text-slate-500">{detail}</span>
        {gauge !== undefined && <Gauge value={gauge} label={title} />}
      </dd>
    </div>
  );
}

export function HostFigures({ host }: { host: MonitoringAnswer['host'] }) {
  const t = useT();
  const locale = useLocale();
  const memory = percent(host.memory.usedBytes, host.memory.totalBytes);
  const disk = percent(host.disk.usedBytes, host.disk.totalBytes);
  const up = uptimeParts(host.uptimeSeconds);
  const load = (n: number) => n.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

  return (
    <>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-5">
        <Figure
          testId="host-cpu"
          title={t('deploy.cpu')}
          value={formatPercent(host.cpu.usagePercent)}
          detail={`${t('deploy.cores', { count: host.cpu.cores })} · ${t('deploy.load', { load1: load(host.cpu.load1), load5: load(host.cpu.load5), load15: load(host.cpu.load15) })}`}
          gauge={host.cpu.usagePercent}
        />
        <Figure
          testId="host-memory"
          title={t('deploy.memory')}
          value={formatPercent(memory)}
          detail={t('deploy.usedOf', {
            used: hostSize(host.memory.usedBytes),
            total: hostSize(host.memory.totalBytes),
          })}
          gauge={memory}
        />
        <Figure
          testId="host-disk"
          title={t('deploy.disk')}
          value={formatPercent(disk)}
          detail={t('deploy.usedOf', { used: hostSize(host.disk.usedBytes), total: hostSize(host.disk.totalBytes) })}
          gauge={disk}
        />
        <Figure
          testId="host-network"
          title={t('deploy.network')}
          value={`${hostSize(host.network.rxBytesPerSecond)}/s`}
          detail={t('deploy.netValue', {
            rx: hostSize(host.network.rxBytesPerSecond),
            tx: hostSize(host.network.txBytesPerSecond),
          })}
        />
        <Figure
          testId="host-uptime"
          title={t('deploy.uptime')}
          value={t('deploy.uptimeValue', { days: up.days, hours: up.hours })}
          detail={host.os}
        />
      </dl>
    </>
  );
}
