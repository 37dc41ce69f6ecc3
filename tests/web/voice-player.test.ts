import { afterEach, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import {
  VOICE_EXPIRED_TEXT,
  VoicePlayer,
  claimPlayback,
  playingAudio,
  voiceSeconds,
  voiceUrl,
} from '../../web/ui/voice-player.js';

/*
 * No screen mounts the voice-message player yet (the user detail with moments will), so it has
 * no browser test; these cover what it decides without a DOM.
 */

const fakeAudio = () => {
  const audio = {
    paused: 0,
    pause() {
      this.paused++;
    },
  };
  return audio;
};

afterEach(() => {
  playingAudio.value = null;
});

describe('voice player: where the audio comes from', () => {
  it('keeps our own paths, blobs and data URLs, and puts bare paths under the file server', () => {
    expect(voiceUrl('/plate/voice/a.mp3')).toBe('/plate/voice/a.mp3');
    expect(voiceUrl('blob:http://localhost/123')).toBe('blob:http://localhost/123');
    expect(voiceUrl('data:audio/mpeg;base64,AAAA')).toBe('data:audio/mpeg;base64,AAAA');
    expect(voiceUrl('voice/2024/a.amr')).toBe('/plate/voice/2024/a.amr');
  });
  it('has no source for nothing, and none for a URL that would leave the console origin', () => {
    expect(voiceUrl(undefined)).toBeNull();
    expect(voiceUrl(null)).toBeNull();
    expect(voiceUrl('')).toBeNull();
    expect(voiceUrl('//evil.example/a.mp3')).toBeNull();
    expect(voiceUrl('https://evil.example/a.mp3')).toBeNull();
  });
});

describe('voice player: length in seconds', () => {
  it('rounds to whole seconds', () => {
    expect(voiceSeconds(3.4)).toBe(3);
    expect(voiceSeconds(3.5)).toBe(4);
    expect(voiceSeconds(60)).toBe(60);
  });
  it('reads a missing or corrupt length as 0', () => {
    expect(voiceSeconds(undefined)).toBe(0);
    expect(voiceSeconds(null)).toBe(0);
    expect(voiceSeconds(-2)).toBe(0);
    expect(voiceSeconds(Number.NaN)).toBe(0);
    expect(voiceSeconds(Number.POSITIVE_INFINITY)).toBe(0);
  });
});

describe('voice player: one audio at a time', () => {
  it('pauses the audio that was playing when another starts', () => {
    const first = fakeAudio();
    const second = fakeAudio();
    claimPlayback(first);
    expect(playingAudio.value).toBe(first);
    claimPlayback(second);
    expect(first.paused).toBe(1);
    expect(second.paused).toBe(0);
    expect(playingAudio.value).toBe(second);
  });
  it('does not pause an audio that starts again itself', () => {
    const only = fakeAudio();
    claimPlayback(only);
    claimPlayback(only);
    expect(only.paused).toBe(0);
    expect(playingAudio.value).toBe(only);
  });
});

describe('voice player: what it renders', () => {
  it('shows 语音失效 with no source, or the caller’s own text', () => {
    expect(VOICE_EXPIRED_TEXT).toBe('语音失效');
    expect(renderToStaticMarkup(createElement(VoicePlayer, { src: null, duration: 5 }))).toContain('语音失效');
    expect(renderToStaticMarkup(createElement(VoicePlayer, { src: '', expiredText: 'Voice expired' }))).toContain(
      'Voice expired',
    );
  });
  it('shows a play button with the length in seconds and the audio under /plate/', () => {
    const html = renderToStaticMarkup(createElement(VoicePlayer, { src: 'voice/a.amr', duration: 7.2 }));
    expect(html).toContain('7″');
    expect(html).toContain('src="/plate/voice/a.amr"');
    expect(html).toContain('aria-pressed="false"');
    expect(html).not.toContain('语音失效');
  });
});
