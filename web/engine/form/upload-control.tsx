import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { uploadExtensions, type UploadAnswer, type UploadKind } from '#contract/uploads';
import { UploadFailure, fetchUploadLimits, uploadFile } from '../../api/upload.js';
import type { LabelT } from '../../i18n/resources/index.js';
import { formatBytes, formatCount } from '../../lib/format.js';
import { language } from '../../lib/settings.js';
import { precheckUpload, type UploadProblem } from './upload-check.js';

/**
 * A file field's upload: choose or drop a file, see it checked at once (type by its own bytes,
 * size), its progress with a Cancel, and a preview of the stored file. The field's own text input
 * stays beside it, so an operator can still type or correct the path.
 */

export const uploadLimitsQuery = {
  queryKey: ['upload-limits'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => fetchUploadLimits(signal),
  staleTime: Infinity,
};

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; percent: number }
  | { kind: 'done'; answer: UploadAnswer }
  | { kind: 'failed'; text: string };

/** The accepted types in words: ".png, .jpg, …". */
function typesText(kind: UploadKind): string {
  return uploadExtensions(kind)
    .map((e) => `.${e}`)
    .join(', ');
}

export function problemText(
  t: LabelT,
  problem: UploadProblem | UploadFailure,
  name: string,
  size: number,
  kind: UploadKind,
): string {
  const lang = language.value;
  switch (problem.reason) {
    case 'tooLarge': {
      const max = problem instanceof UploadFailure ? (problem.detail.maxBytes ?? 0) : problem.maxBytes;
      return t('upload.tooLarge', { name, size: formatBytes(size, lang, true), max: formatBytes(max, lang, true) });
    }
    case 'extension':
      return t('upload.extension', { name, types: typesText(kind) });
    case 'empty':
      return t('upload.empty', { name });
    case 'contents': {
      const detected = problem instanceof UploadFailure ? problem.detail.detected : problem.detected;
      return detected
        ? t('upload.contentsDetected', { name, detected: detected.toUpperCase() })
        : t('upload.contents', { name });
    }
    case 'unsupported':
      return t('upload.unsupported');
    case 'cancelled':
      return t('upload.cancelled');
    case 'refused':
      return t('upload.refused', { name, reason: problem.message });
    case 'forbidden':
      return t('upload.forbidden', { name });
    case 'quota': {
      const detail = problem instanceof UploadFailure ? problem.detail : {};
      return t('upload.quota', {
        name,
        files: formatCount(detail.maxFiles ?? 0, lang),
        max: formatBytes(detail.maxBytes ?? 0, lang, true),
      });
    }
    default:
      return t('upload.connection');
  }
}

export interface UploadControlProps {
  kind: UploadKind;
  /** The field's key, to find the control. */
  fieldKey: string;
  /** The field's label element: it tells which field the button uploads for, without joining its name. */
  describedBy?: string;
  t: LabelT;
  onUploaded: (answer: UploadAnswer) => void;
}

export function UploadControl({ kind, fieldKey, describedBy, t, onUploaded }: UploadControlProps) {
  const limits = useQuery(uploadLimitsQuery);
  const input = useRef<HTMLInputElement>(null);
  const cancel = useRef<AbortController | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [preview, setPreview] = useState<{ url: string; name: string } | null>(null);
  const [dragging, setDragging] = useState(false);
  const lang = language.value;
  const maxBytes = limits.data?.maxBytes[kind] ?? null;

  // The local copy's address is freed when it is replaced or the form closes.
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview.url)), [preview]);
  // A form closed mid-upload stops sending.
  useEffect(() => () => cancel.current?.abort(), []);

  const start = async (file: File) => {
    cancel.current?.abort();
    const problem = await precheckUpload(file, file.name, kind, maxBytes);
    if (!('type' in problem)) {
      setPhase({ kind: 'failed', text: problemText(t, problem, file.name, file.size, kind) });
      return;
    }
    const controller = new AbortController();
    cancel.current = controller;
    setPreview(kind === 'image' ? { url: URL.createObjectURL(file), name: file.name } : null);
    setPhase({ kind: 'uploading', name: file.name, percent: 0 });
    try {
      const answer = await uploadFile(file, file.name, kind, {
        signal: controller.signal,
        onProgress: (sent, total) =>
          setPhase({ kind: 'uploading', name: file.name, percent: total > 0 ? Math.floor((sent / total) * 100) : 0 }),
      });
      setPhase({ kind: 'done', answer });
      onUploaded(answer);
    } catch (error) {
      const failure = error instanceof UploadFailure ? error : new UploadFailure('connection', String(error));
      setPreview(null);
      setPhase({ kind: 'failed', text: problemText(t, failure, file.name, file.size, kind) });
    } finally {
      if (cancel.current === controller) cancel.current = null;
    }
  };

  const chosen = (files: FileList | null) => {
    const file = files?.[0];
    if (file) void start(file);
    // The same file chosen again after a fix must fire a change.
    if (input.current) input.current.value = '';
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    chosen(event.dataTransfer.files);
  };

  return (
    <div
      className={`flex flex-col gap-2 rounded-md border border-dashed p-2 ${dragging ? 'border-primary bg-slate-50' : 'border-slate-300'}`}
      data-upload-for={fieldKey}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={input}
          type="file"
          // The button below is the control people and screen readers use; this only opens the picker.
          className="hidden"
          tabIndex={-1}
          aria-hidden="true"
          accept={uploadExtensions(kind)
            .map((e) => `.${e}`)
            .join(',')}
          data-upload-input={fieldKey}
          onChange={(e) => chosen(e.target.files)}
        />
        <button
          type="button"
          className="btn"
          disabled={phase.kind === 'uploading'}
          onClick={() => input.current?.click()}
          aria-describedby={describedBy}
          data-upload-button={fieldKey}
        >
          {t(kind === 'image' ? 'upload.chooseImage' : 'upload.choosePackage')}
        </button>
        <span className="text-xs text-slate-500">
          {t('upload.accepts', { types: typesText(kind), max: maxBytes ? formatBytes(maxBytes, lang, true) : '…' })}
        </span>
      </div>
      {phase.kind === 'uploading' && (
        <div className="flex items-center gap-2">
          <div
            className="h-2 flex-1 overflow-hidden rounded bg-slate-200"
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phase.percent}
            aria-label={t('upload.uploading', { name: phase.name, percent: phase.percent })}
            data-testid="upload-progress"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${phase.percent}%` }} />
          </div>
          <span className="text-xs text-slate-600" role="status">
            {t('upload.uploading', { name: phase.name, percent: phase.percent })}
          </span>
          <button type="button" className="btn" onClick={() => cancel.current?.abort()}>
            {t('upload.cancel')}
          </button>
        </div>
      )}
      {preview && phase.kind !== 'failed' && (
        <img
          src={preview.url}
          alt={t('upload.previewAlt', { name: preview.name })}
          className="h-24 w-24 rounded border border-slate-200 object-contain"
          data-testid="upload-preview"
        />
      )}
      {phase.kind === 'done' && (
        <p className="text-xs text-green-700" role="status" data-testid="upload-done">
          {t('upload.done', { name: phase.answer.name, size: formatBytes(phase.answer.size, lang) })}
          {kind === 'package' && (
            <span className="ml-2 font-mono text-slate-600">{t('upload.doneMd5', { md5: phase.answer.md5 })}</span>
          )}
        </p>
      )}
      {phase.kind === 'failed' && (
        <p className="text-sm text-red-600" role="alert" data-testid="upload-error">
          {phase.text}
        </p>
      )}
    </div>
  );
}
