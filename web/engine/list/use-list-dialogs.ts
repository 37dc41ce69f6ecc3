import { useState } from 'react';
import type { ListResource } from '#contract';
import type { LabelT } from '../../i18n/resources/index.js';
import { toast } from '../../lib/toast.js';
import { namesText } from '../record/record-names.js';
import { recordName } from '../record/record-summary.js';
import { useDeleteMutation, useSaveMutation, type Row } from '../shared/queries.js';

export type Editing = { mode: 'create' } | { mode: 'edit'; row: Row } | null;

/**
 * The list's own dialogs as state and what their buttons do: the create or edit form, the delete
 * confirmation (one row or the selected ones), the CSV import. `onRemoved` is told once a delete
 * went through (the selection it was made from goes).
 */
export function useListDialogs(resource: ListResource, rows: readonly Row[], t: LabelT, onRemoved: () => void) {
  const [editing, setEditing] = useState<Editing>(null);
  const [removing, setRemoving] = useState<string[] | null>(null);
  const [importing, setImporting] = useState(false);
  const save = useSaveMutation(resource);
  const remove = useDeleteMutation(resource);
  const nameOf = (row: Row) => recordName(t, resource, row);
  const removedRows = removing ? rows.filter((r) => removing.includes(String(r.id))) : [];

  return {
    editing,
    edit: (row: Row) => setEditing({ mode: 'edit', row }),
    startCreate: resource.create ? () => setEditing({ mode: 'create' }) : undefined,
    closeEditor: () => setEditing(null),
    submitEdit: async (values: Record<string, unknown>) => {
      const isEdit = editing?.mode === 'edit';
      await save.mutateAsync(isEdit ? { ...values, id: editing.row.id } : values);
      toast.success(t(isEdit ? 'engine.saved' : 'engine.created'));
      setEditing(null);
    },
    removing: removing !== null,
    removedRows,
    askRemove: (ids: string[]) => setRemoving(ids),
    closeRemove: () => setRemoving(null),
    confirmRemove: () => {
      const named = namesText(t, removedRows.map(nameOf));
      setRemoving(null);
      remove.mutate(
        removedRows.map((r) => r.id),
        {
          onSuccess: () => {
            onRemoved();
            toast.success(t('engine.deletedNamed', { name: named }));
          },
        },
      );
    },
    importing,
    startImport: () => setImporting(true),
    closeImport: () => setImporting(false),
    nameOf,
  };
}

export type ListDialogs = ReturnType<typeof useListDialogs>;
