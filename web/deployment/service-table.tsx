import type { ServiceMetrics, ServiceStatus } from '#contract';
import { useT, type MessageKey } from '../i18n/index.js';
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
    <span className={`inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${s.className}`} data-status={status}>
      <span className="h-1.5 w-1.5 rounded-full bg-current" aria-hidden="true" />
      {t(s.label)}
    </span>
  );
}

export function ServiceTable({ services }: { services: readonly ServiceMetrics[] }) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="service-table">
        <thead className="bg-slate-100 text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">
              {t('deploy.service.name')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('deploy.service.version')}
            </th>
            <th scope="col" className="px-3 py-2">
              {t('deploy.service.status')}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t('deploy.cpu')}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t('deploy.memory')}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t('deploy.uptime')}
            </th>
            <th scope="col" className="px-3 py-2 text-right">
              {t('deploy.service.connections')}
            </th>
          </tr>
        </thead>
        <tbody>
          {services.map((s) => {
            const up = uptimeParts(s.uptimeSeconds);
            return (
              <tr key={s.name} className="border-t border-slate-100" data-testid={`service-${s.name}`}>
                <th scope="row" className="px-3 py-2 font-medium text-slate-800">
                  {s.name}
                </th>
                <td className="px-3 py-2 text-slate-600">{s.version}</td>
                <td className="px-3 py-2">
                  <StatusBadge status={s.status} />
                </td>
                <td className="px-3 py-2 text-right tabular-nums">{formatPercent(s.cpuPercent)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{hostSize(s.memoryBytes)}</td>
                <td className="px-3 py-2 text-right tabular-nums">{t('deploy.uptimeValue', { days: up.days, hours: up.hours })}</td>
                <td className="px-3 py-2 text-right tabular-nums">{s.connections > 0 ? s.connections.toLocaleString(locale) : '–'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
