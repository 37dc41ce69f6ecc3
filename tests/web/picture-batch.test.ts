import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * The batching of small pictures, without a browser: Image is a stand-in whose decode() the test
 * settles by hand, and the clock (animation frames included) is vitest's fake timers. The page's side
 * (a picture's stand-in watched near the view, the list showing each row's own avatar) is in
 * tests/e2e/list-pictures.test.ts.
 */

class FakeImage {
  static made: FakeImage[] = [];
  src = '';
  settle!: (ok: boolean) => void;
  constructor() {
    FakeImage.made.push(this);
  }
  decode(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.settle = (ok) => (ok ? resolve() : reject(new Error('EncodingError')));
    });
  }
}

const fetched = (url: string) => FakeImage.made.find((i) => i.src === url)!;

let batch: typeof import('../../web/lib/picture-batch.js');
let announced = 0;

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.stubGlobal('Image', FakeImage);
  // Node has no animation frames: one every 16 ms of the fake clock.
  vi.stubGlobal('requestAnimationFrame', (callback: () => void) => setTimeout(callback, 16));
  batch = await import('../../web/lib/picture-batch.js');
  batch.subscribePictures(() => announced++);
});
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
beforeEach(() => {
  announced = 0;
});

/** Lets the settled decode() promises run their callbacks. */
const flush = () => vi.advanceTimersByTimeAsync(0);

describe('picture batches', () => {
  it('shows a batch once, when its last picture is in', async () => {
    batch.fetchBatch(['/a1.png', '/a2.png', '/a3.png']);
    fetched('/a1.png').settle(true);
    fetched('/a2.png').settle(true);
    await flush();
    expect(announced).toBe(0);
    expect(batch.pictureState('/a1.png')).toBeUndefined();
    fetched('/a3.png').settle(false);
    await flush();
    expect(announced).toBe(1);
    expect(batch.pictureState('/a1.png')).toBe('loaded');
    expect(batch.pictureState('/a3.png')).toBe('failed');
  });

  it('fetches a picture once, whether it is known or still on its way', async () => {
    const before = FakeImage.made.length;
    batch.fetchBatch(['/a1.png', '/b1.png']);
    batch.fetchBatch(['/b1.png']);
    expect(FakeImage.made.length - before).toBe(1);
    fetched('/b1.png').settle(true);
    await flush();
    expect(batch.pictureState('/b1.png')).toBe('loaded');
  });

  it('shows the pictures in when the wait is over, and the late ones a frame at a time', async () => {
    batch.fetchBatch(['/c1.png', '/c2.png', '/c3.png']);
    fetched('/c1.png').settle(true);
    await flush();
    await vi.advanceTimersByTimeAsync(batch.BATCH_WAIT_MS);
    expect(announced).toBe(1);
    expect(batch.pictureState('/c1.png')).toBe('loaded');
    expect(batch.pictureState('/c2.png')).toBeUndefined();
    // Two late pictures settled before the next frame: shown in that frame, together.
    fetched('/c2.png').settle(true);
    fetched('/c3.png').settle(true);
    await flush();
    expect(announced).toBe(1);
    await vi.advanceTimersByTimeAsync(16);
    expect(announced).toBe(2);
    expect(batch.pictureState('/c3.png')).toBe('loaded');
  });

  it('asks again for a picture that failed, once a minute is over', async () => {
    batch.fetchBatch(['/d1.png']);
    fetched('/d1.png').settle(false);
    await flush();
    expect(batch.pictureState('/d1.png')).toBe('failed');
    const before = FakeImage.made.length;
    batch.fetchBatch(['/d1.png']);
    expect(FakeImage.made.length).toBe(before);
    await vi.advanceTimersByTimeAsync(batch.FAILED_RETRY_MS + 1);
    expect(batch.pictureState('/d1.png')).toBeUndefined();
    batch.fetchBatch(['/d1.png']);
    expect(FakeImage.made.length).toBe(before + 1);
    FakeImage.made.at(-1)!.settle(true);
    await flush();
    expect(batch.pictureState('/d1.png')).toBe('loaded');
  });
});
