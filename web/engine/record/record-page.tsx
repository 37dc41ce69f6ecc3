import { useEffect, useId, useLayoutEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSignals } from '@preact/signals-react/runtime';
import { formFields, type ListResource } from '#contract';
import { accountName } from '../../api/session.js';
import { useLabelT } from '../../i18n/resources/index.js';
import { listUrl, recordTitle, returnToList } from '../../lib/record-nav.js';
import { toast } from '../../lib/toast.js';
import { ConfirmDialog } from '../../ui/confirm-dialog.js';
import { FormDialog } from '../form/form-dialog.js';
import { resourceTitle } from '../shared/labels.js';
import { Empty, LoadFailed, Loading } from '../shared/states.js';
import { useDeleteMutation, useSaveMutation, type Row } from '../shared/queries.js';
import { deleteQuestion } from './record-names.js';
import { FieldList } from './record-fields.js';
import { useRecordLinks } from './record-links.js';
import { recordQueryOptions } from './record-query.js';
import { RecordCommandBar } from './record-commands.js';
import { recordName } from './record-summary.js';
import { relatedFilters } from './related.js';
import { RelatedListSection } from './related-list.js';
import { buildRowCommands, runningOn } from '../actions/row-commands.js';
import type { ListScreenOptions } from '../shared/types.js';
import { useActionRunner } from '../actions/use-action-runner.js';

export interface RecordPageProps {
  resource: ListResource;
  id: string;
  /** The list the record belongs to, and its title: the way back. */
  listPath: string;
  listTitle: string;
  options?: ListScreenOptions;
}

const card = 'rounded-md border border-slate-200 bg-white p-4';

/**
 * A record's own page, the same for every list screen: its fields, its actions (the declarations
 * and confirmations its list rows use), the sections its screen draws from the detail answer,
 * the related lists its screen declares, and its history when the console has one.
 */
export function RecordPage({ resource, id, listPath, listTitle, options = {} }: RecordPageProps) {
  useSignals();
  const t = useLabelT();
  const links = useRecordLinks();
  const query = useQuery(recordQueryOptions(resource, id));
  const record = query.data?.record ?? null;
  const here = `${listPath}/${id}`;
  const name = record ? recordName(t, resource, record) : `#${id}`;
  const fieldsId = useId();
  const historyId = useId();

  // A new page starts at its top, wherever the list it was opened from was scrolled to. (In
  // braces: Chromium's scrollTo answers a promise, which React would take for a clean-up.)
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [here]);
  useEffect(() => {
    recordTitle.value = { path: here, name };
  }, [here, name]);
  useEffect(
    () => () => {
      recordTitle.value = null;
    },
    [],
  );

  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const save = useSaveMutation(resource);
  const remove = useDeleteMutation(resource);
  const runner = useActionRunner(resource, options.results, (action, target) => options.afterAction?.(action, target));
  const noop = () => {};
  const commands = record
    ? buildRowCommands(
        resource,
        record,
        { detail: false, edit: !!resource.edit, remove: !!resource.remove, links: options.links ?? [] },
        {
          detail: noop,
          open: noop,
          edit: () => setEditing(true),
          remove: () => setRemoving(true),
          action: (action, row) => runner.start(action, { id: row.id }, [row]),
        },
        t,
        runner.running.size ? runningOn(runner.running, String(record.id)).split(',') : [],
        resource.selfField ? accountName.value : '',
      )
    : [];

  const related = record
    ? (options.related ?? []).flatMap((r) => {
        const path = links.listPath(r.resource.id);
        const filters = path ? relatedFilters(r, record) : null;
        return path && filters ? [{ related: r, path, filters }] : [];
      })
    : [];
  const Custom = options.detail;
  const History = options.history;
  const back = listUrl(listPath);

  let body;
  if (query.isPending) {
    body = <Loading />;
  } else if (query.isError && !query.data) {
    body = (
      <LoadFailed
        error={query.error}
        onRetry={() => void query.refetch()}
        message={t('record.loadFailed', { id, message: query.error.message })}
        testId="record-error"
      />
    );
  } else if (!record) {
    body = <Empty testId="record-missing">{t('record.notFound', { id })}</Empty>;
  } else {
    const fields = (
      <section aria-labelledby={fieldsId} className={card}>
        <h2 id={fieldsId} className="mb-3 font-semibold text-slate-800">
          {t('record.fields')}
        </h2>
        <FieldList resource={resource} record={record} />
      </section>
    );
    const own = Custom && (
      <Custom
        resource={resource}
        data={query.data?.detail}
        row={record}
        t={t}
        related={new Set(related.map((r) => r.related.resource.id))}
      />
    );
    const beside = (related.length > 0 || History) && (
      <>
        {related.map((r) => (
          <RelatedListSection
            key={r.related.resource.id}
            related={r.related}
            filters={r.filters}
            listPath={r.path}
            t={t}
          />
        ))}
        {History && (
          <section aria-labelledby={historyId} className={card} data-testid="record-history">
            <h2 id={historyId} className="mb-3 font-semibold text-slate-800">
              {t('record.history')}
            </h2>
            <History resource={resource} id={id} />
          </section>
        )}
      </>
    );
    // Two columns on a wide screen: the record (its fields and own sections) beside what relates
    // to it; a record without related lists puts its own sections beside its fields instead.
    body = (
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <div className="flex min-w-0 flex-col gap-4">
          {fields}
          {beside && own}
        </div>
        <div className="flex min-w-0 flex-col gap-4">{beside || own}</div>
      </div>
    );
  }

  return (
    <div
      className="flex flex-col gap-4"
      data-testid="record-page"
      data-resource={resource.id}
      data-record-id={id}
      aria-busy={query.isFetching || undefined}
    >
      <div>
        <a
          href={back}
          className="text-sm text-primary hover:underline"
          data-testid="record-back"
          onClick={(e) => {
            if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
            e.preventDefault();
            returnToList(listPath);
          }}
        >
          <span aria-hidden="true">← </span>
          {t('record.backTo', { title: listTitle })}
        </a>
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-sm text-slate-500">
            {resourceTitle(t, resource.id)} · #{id}
          </p>
          <h1 className="text-2xl font-semibold break-words text-slate-800" data-testid="record-title">
            {name}
          </h1>
        </div>
        {commands.length > 0 && <RecordCommandBar commands={commands} t={t} name={name} />}
      </div>
      {body}
      {record && (
        <>
          <FormDialog
            open={editing}
            title={`${t('engine.edit')} · ${name}`}
            fields={formFields(resource, 'edit')}
            rules={resource.rules}
            initial={record}
            submitLabel={t('engine.save')}
            keepsOldSecret
            onClose={() => setEditing(false)}
            onSubmit={async (values: Row) => {
              await save.mutateAsync({ ...values, id: record.id });
              toast.success(t('engine.saved'));
              setEditing(false);
            }}
          />
          <ConfirmDialog
            open={removing}
            text={deleteQuestion(t, [name])}
            onCancel={() => setRemoving(false)}
            onConfirm={() => {
              setRemoving(false);
              remove.mutate([record.id], {
                onSuccess: () => {
                  toast.success(t('engine.deletedNamed', { name }));
                  returnToList(listPath);
                },
              });
            }}
          />
        </>
      )}
      {runner.dialogs}
    </div>
  );
}
