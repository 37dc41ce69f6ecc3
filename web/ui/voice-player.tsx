import { useEffect, useRef, useState } from 'react';
import { signal } from '@preact/signals-react';
import { useT } from '../i18n/index.js';
import { fileUrl } from '../lib/file-url.js';
import { UiIcon } from './icons.js';

type Pausable = Pick<HTMLMediaElement, 'pause'>;

/** The one audio allowed to play at a time; starting another stops it. */
export const playingAudio = signal<Pausable | null>(null);

export const VOICE_EXPIRED_TEXT = '语音失效';

/**
 * Where to fetch a voice message: our own paths and in-memory blobs as given, a bare file-server
 * path under /plate/. A protocol-relative `//host/...` would leave the console's origin, so it
 * counts as no source rather than as a local path.
 */
export function voiceUrl(src: string | null | undefined): string | null {
  if (!src) return null;
  if (src.startsWith('//')) return null;
  if (src.startsWith('/') || src.startsWith('blob:') || src.startsWith('data:')) return src;
  return fileUrl(src);
}

/** Whole seconds to show; a missing or corrupt length (NaN, Infinity, negative) reads as 0. */
export function voiceSeconds(duration: number | null | undefined): number {
  return typeof duration === 'number' && Number.isFinite(duration) ? Math.max(0, Math.round(duration)) : 0;
}

/** Makes `el` the one playing audio, pausing whichever played before. */
export function claimPlayback(el: Pausable): void {
  const other = playingAudio.peek();
  if (other && other !== el) other.pause();
  playingAudio.value = el;
}

/** Voice message: play/pause with its length in seconds, or 语音失效 when there is nothing to play. */
export function VoicePlayer({
  src,
  duration,
  expiredText = VOICE_EXPIRED_TEXT,
}: {
  src?: string | null;
  duration?: number | null;
  expiredText?: string;
}) {
  const t = useT();
  const ref = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [broken, setBroken] = useState(false);
  const url = voiceUrl(src);

  useEffect(
    () => () => {
      if (playingAudio.peek() === ref.current) playingAudio.value = null;
    },
    [],
  );

  if (!url || broken) return <span className="text-sm text-slate-500">{expiredText}</span>;

  const toggle = () => {
    const el = ref.current;
    if (!el) return;
    if (playing) {
      el.pause();
      return;
    }
    claimPlayback(el);
    void el.play().catch(() => setBroken(true));
  };

  const seconds = voiceSeconds(duration);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        className="btn px-2 py-1"
        onClick={toggle}
        aria-label={playing ? t('voice.pause') : t('voice.play')}
        aria-pressed={playing}
      >
        <UiIcon name={playing ? 'pause' : 'play'} className="h-4 w-4" />
        <span className="ml-1 tabular-nums">{seconds}″</span>
      </button>
      <audio
        ref={ref}
        src={url}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onError={() => setBroken(true)}
      />
    </span>
  );
}
