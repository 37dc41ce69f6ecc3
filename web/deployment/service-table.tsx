import type { ServiceMetrics, ServiceStatus } from '#contract';
import { useT, type MessageKey } from '../i18n/index.js';
import { DataView, type DataColumn } from '../ui/data-table.js';
import { useLocale } from '../ui/panel.js';
import { formatPercent, hostSize, uptimeParts } from './format.js';

const STATUS: Record<ServiceStatus, { label: MessageKey; className: string }> = {
  running: { label: 'deploy.status.running', className: 'bg-green-100 text-green-800 ring-green-600/30' },
  degraded: { label: 'deploy.status.degraded', className: 'bg-amber-100 text-amber-900 ring-amber-600/30' },
  stopped: { label: 'deploy.status.stopped', className: 'bg-red-100 text-red-800 ring-red-600/30' },
};

export function StatusBadge({ status }: { status: ServiceStatus }) {
  const t = useT();
  const s = STATUS[status] ?? STATUS.stopped;
  // The dot repeats the colour for readers who cannot tell green from amber; the text says it.
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${s.className}`}
      data-status={status}
    >
      <span className="h-1.5 w-1.5 rounded-full bg-current" aria-hidden="true" />
      {t(s.label)}
    </span>
  );
}

/** The services, one row (a card on a phone) each, in the console's one table. */
export function ServiceTable({ services }: { services: readonly ServiceMetrics[] }) {
  const t = useT();
  const locale = useLocale();
  const columns: DataColumn<ServiceMetrics>[] = [
    { key: 'name', header: t('deploy.service.name'), rowHeader: true, cell: (s) => s.name },
    { key: 'version', header: t('deploy.service.version'), className: 'text-slate-600', cell: (s) => s.version },
    { key: 'status', header: t('deploy.service.status'), cell: (s) => <StatusBadge status={s.status} /> },
    { key: 'cpu', header: t('deploy.cpu'), numeric: true, cell: (s) => formatPercent(s.cpuPercent) },
    { key: 'memory', header: t('deploy.memory'), numeric: true, cell: (s) => hostSize(s.memoryBytes) },
    {
      key: 'uptime',
      header: t('deploy.uptime'),
      numeric: true,
      cell: (s) => {
        const up = uptimeParts(s.uptimeSeconds);
        return t('deploy.uptimeValue', { days: up.days, hours: up.hours });
      },
    },
    {
      key: 'connections',
      header: t('deploy.service.connections'),
      numeric: true,
      cell: (s) => (s.connections > 0 ? s.connections.toLocaleString(locale) : '–'),
    },
  ];
  return (
    <DataView
      columns={columns}
      rows={services}
      rowKey={(s) => s.name}
      rowProps={(s) => ({ 'data-testid': `service-${s.name}` })}
      testId="service-table"
    />
  );
}
