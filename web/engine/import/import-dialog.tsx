import { useMemo, useRef, useState } from 'react';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { useQueryClient } from '@tanstack/react-query';
import type { ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { formatBytes } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { csvFileName, toCsv } from '#contract/csv';
import { parseCsv, type Separator } from './csv-read.js';
import { downloadText } from '../shared/export-csv.js';
import {
  IMPORT_MAX_ROWS,
  matchHeader,
  readRows,
  templateHeader,
  type HeaderMatch,
  type ImportRow,
  type ImportSpec,
} from './import-rows.js';
import { runImport, screenCalls, type RunOutcome } from './import-run.js';
import { ImportTable, reasonText, rowState } from './import-table.js';
import { actionLabel, fieldLabel, optionLabel, resourceTitle } from '../shared/labels.js';
import { resourceKeys } from '../shared/queries.js';

/**
 * The import dialog of a list screen: choose a CSV file, see every row checked (and the file's
 * columns as read), import the ready rows with a progress bar and a Cancel, then a report of what
 * became of each row, which downloads as CSV. Built once for every screen that declares an import.
 */

/** A file larger than this is no list an administrator keeps by hand: refused before it is read. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

interface Loaded {
  name: string;
  separator: Separator;
  match: HeaderMatch;
  rows: ImportRow[];
}

type Stage =
  | { kind: 'choose'; error?: string }
  | { kind: 'preview'; file: Loaded }
  | { kind: 'running'; file: Loaded; done: number; total: number }
  | { kind: 'report'; file: Loaded; outcomes: Map<number, RunOutcome>; cancelled: boolean };

const SEPARATOR_KEYS = {
  ',': 'import.separator.comma',
  ';': 'import.separator.semicolon',
  '\t': 'import.separator.tab',
} as const;

export function ImportDialog({
  open,
  resource,
  spec,
  t,
  onClose,
}: {
  open: boolean;
  resource: ListResource;
  spec: ImportSpec;
  t: LabelT;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  const [problemsOnly, setProblemsOnly] = useState(false);
  const cancel = useRef<AbortController | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const columnNames = spec.columns.map((f) => fieldLabel(t, f.key)).join(', ');
  const title = t('import.title', {
    what: spec.action ? actionLabel(t, spec.action.name) : resourceTitle(t, resource.id),
  });

  const close = () => {
    if (stage.kind === 'running') return;
    setStage({ kind: 'choose' });
    setProblemsOnly(false);
    onClose();
  };

  const read = async (file: File) => {
    if (file.size > MAX_FILE_BYTES) {
      setStage({
        kind: 'choose',
        error: t('import.fileTooLarge', {
          size: formatBytes(file.size, language.value, true),
          max: formatBytes(MAX_FILE_BYTES, language.value, true),
        }),
      });
      return;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: false }).decode(await file.arrayBuffer());
    } catch {
      setStage({ kind: 'choose', error: t('import.unreadable') });
      return;
    }
    if (text.includes('\u0000')) {
      setStage({ kind: 'choose', error: t('import.unreadable') });
      return;
    }
    const table = parseCsv(text);
    const match = matchHeader(table.records[0]?.cells ?? [], spec.columns, (f) => [fieldLabel(t, f.key)]);
    const rows = readRows(table, spec, match, {
      lang: language.value,
      optionNames: (f, o) => [optionLabel(t, f.key, o)],
    });
    if (rows.length === 0) setStage({ kind: 'choose', error: t('import.empty') });
    else if (rows.length > IMPORT_MAX_ROWS)
      setStage({ kind: 'choose', error: t('import.tooManyRows', { count: rows.length, max: IMPORT_MAX_ROWS }) });
    else setStage({ kind: 'preview', file: { name: file.name, separator: table.separator, match, rows } });
  };

  const run = async (file: Loaded) => {
    const ready = file.rows.filter((r) => r.status === 'ready');
    const controller = new AbortController();
    cancel.current = controller;
    setStage({ kind: 'running', file, done: 0, total: ready.length });
    const outcomes = await runImport({
      calls: screenCalls(resource),
      spec,
      rows: ready,
      signal: controller.signal,
      onProgress: (done, total) => setStage({ kind: 'running', file, done, total }),
    });
    cancel.current = null;
    await client.invalidateQueries({ queryKey: resourceKeys.all(resource) });
    setStage({
      kind: 'report',
      file,
      outcomes,
      cancelled: controller.signal.aborted || [...outcomes.values()].some((o) => o.status === 'notSent'),
    });
  };

  const file = stage.kind === 'choose' ? null : stage.file;
  const outcomes = stage.kind === 'report' ? stage.outcomes : null;
  const counts = useMemo(() => {
    const of = (state: string) => file?.rows.filter((r) => rowState(r, outcomes?.get(r.line)) === state).length ?? 0;
    return {
      ready: of('ready'),
      invalid: of('invalid'),
      duplicate: of('duplicate'),
      added: of('added'),
      done: of('done'),
      skipped: of('skipped') + of('duplicate'),
      refused: of('refused'),
    };
  }, [file, outcomes]);
  const shownRows = file
    ? problemsOnly
      ? file.rows.filter((r) => !['ready', 'added', 'done'].includes(rowState(r, outcomes?.get(r.line))))
      : file.rows
    : [];

  const downloadReport = (loaded: Loaded, results: Map<number, RunOutcome>) => {
    const columns = [
      { label: t('import.line'), value: (r: ImportRow) => String(r.line) },
      ...spec.columns.map((f) => ({ label: fieldLabel(t, f.key), value: (r: ImportRow) => r.cells[f.key] ?? '' })),
      { label: t('import.status'), value: (r: ImportRow) => t(`import.status.${rowState(r, results.get(r.line))}`) },
      { label: t('import.reason'), value: (r: ImportRow) => reasonText(t, spec, r, results.get(r.line)) },
    ];
    downloadText(toCsv(columns, loaded.rows), csvFileName(`${resource.id}-${t('import.reportFile')}`));
  };

  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
      <div className="fixed inset-0 flex items-stretch justify-center sm:items-center sm:p-4">
        <DialogPanel
          className="flex h-full w-full flex-col bg-white shadow-xl sm:h-auto sm:max-h-[90vh] sm:max-w-4xl sm:rounded-lg"
          data-testid="import-dialog"
          data-stage={stage.kind}
        >
          <DialogTitle className="border-b border-slate-200 px-5 py-3 text-lg font-semibold text-slate-800">
            {title}
          </DialogTitle>
          <div className="flex min-h-0 flex-1 flex-col gap-3 overflow-y-auto px-5 py-4 text-sm text-slate-700">
            {stage.kind === 'choose' && (
              <>
                <p>
                  {spec.action
                    ? t('import.introAction', { columns: columnNames, key: fieldLabel(t, spec.key.key) })
                    : t('import.intro', { columns: columnNames })}
                </p>
                <div
                  className="flex flex-wrap items-center gap-2 rounded-md border border-dashed border-slate-300 p-4"
                  onDragOver={(e) => e.preventDefault()}
                  onDrop={(e) => {
                    e.preventDefault();
                    const dropped = e.dataTransfer.files[0];
                    if (dropped) void read(dropped);
                  }}
                >
                  <input
                    ref={input}
                    type="file"
                    accept=".csv,.txt,text/csv"
                    // The button beside it is the control; this only opens the picker.
                    className="hidden"
                    tabIndex={-1}
                    aria-hidden="true"
                    data-testid="import-file"
                    onChange={(e) => {
                      const chosen = e.target.files?.[0];
                      e.target.value = '';
                      if (chosen) void read(chosen);
                    }}
                  />
                  <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
                    {t('import.chooseFile')}
                  </button>
                  <button
                    type="button"
                    className="btn"
                    onClick={() =>
                      downloadText(
                        toCsv(
                          templateHeader(spec).map((k) => ({ label: k, value: () => '' })),
                          [],
                        ),
                        csvFileName(`${resource.id}-template`),
                      )
                    }
                  >
                    {t('import.template')}
                  </button>
                </div>
                {stage.error && (
                  <p role="alert" className="text-red-700" data-testid="import-error">
                    {stage.error}
                  </p>
                )}
              </>
            )}
            {file && (
              <>
                <p data-testid="import-file-summary">
                  {t('import.fileSummary', {
                    name: file.name,
                    count: file.rows.length,
                    separator: t(SEPARATOR_KEYS[file.separator]),
                  })}
                </p>
                {!file.match.header && (
                  <p className="text-amber-700">{t('import.noHeader', { columns: columnNames })}</p>
                )}
                {file.match.ignored.length > 0 && (
                  <p className="text-slate-500">
                    {t('import.ignoredColumns', { columns: file.match.ignored.join(', ') })}
                  </p>
                )}
                {file.match.missing.length > 0 && (
                  <p role="alert" className="text-red-700" data-testid="import-missing">
                    {t('import.missingColumns', {
                      columns: file.match.missing.map((f) => fieldLabel(t, f.key)).join(', '),
                    })}
                  </p>
                )}
                <p role="status" data-testid="import-counts">
                  {stage.kind === 'report'
                    ? // Worded as the rows' own status reads: a create import adds, an action import does.
                      t(spec.action ? 'import.summaryDone' : 'import.summary', {
                        added: counts.added,
                        done: counts.done,
                        skipped: counts.skipped,
                        refused: counts.refused,
                        invalid: counts.invalid,
                      })
                    : t('import.checked', {
                        ready: counts.ready,
                        invalid: counts.invalid,
                        duplicate: counts.duplicate,
                      })}
                </p>
                {stage.kind === 'report' && stage.cancelled && (
                  <p className="font-medium text-amber-700">{t('import.cancelled')}</p>
                )}
                {stage.kind === 'running' && (
                  <div className="flex items-center gap-3" data-testid="import-progress">
                    <div
                      className="h-2 flex-1 overflow-hidden rounded bg-slate-200"
                      role="progressbar"
                      aria-valuemin={0}
                      aria-valuemax={stage.total}
                      aria-valuenow={stage.done}
                      aria-label={title}
                    >
                      <div
                        className="h-full bg-primary transition-[width]"
                        style={{ width: `${stage.total ? Math.round((stage.done / stage.total) * 100) : 0}%` }}
                      />
                    </div>
                    <span role="status">{t('import.progress', { count: stage.done, total: stage.total })}</span>
                  </div>
                )}
                <label className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    className="accent-primary"
                    checked={problemsOnly}
                    onChange={(e) => setProblemsOnly(e.target.checked)}
                  />
                  {t('import.showProblems')}
                </label>
                <ImportTable t={t} spec={spec} rows={shownRows} outcomes={outcomes} />
              </>
            )}
          </div>
          <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-5 py-3">
            {stage.kind === 'running' ? (
              <button type="button" className="btn" onClick={() => cancel.current?.abort()} data-testid="import-cancel">
                {t('engine.cancel')}
              </button>
            ) : (
              <button type="button" className="btn" onClick={close}>
                {t('engine.close')}
              </button>
            )}
            {stage.kind === 'preview' && (
              <button
                type="button"
                className="btn btn-primary"
                disabled={counts.ready === 0 || stage.file.match.missing.length > 0}
                onClick={() => void run(stage.file)}
                data-testid="import-run"
              >
                {t('import.run', { count: counts.ready })}
              </button>
            )}
            {stage.kind === 'report' && (
              <>
                <button
                  type="button"
                  className="btn"
                  onClick={() => downloadReport(stage.file, stage.outcomes)}
                  data-testid="import-report-download"
                >
                  {t('import.downloadReport')}
                </button>
                <button type="button" className="btn btn-primary" onClick={() => setStage({ kind: 'choose' })}>
                  {t('import.another')}
                </button>
              </>
            )}
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
