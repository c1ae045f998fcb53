/**
 * Sound for chips, cards and results: short WebAudio tones generated in code (no audio files), and the on/off
 * setting remembered in localStorage. The AudioContext is created on the first sound (after a click or key press,
 * as browsers require) and never when sound is off.
 */

export type SoundName = 'chip' | 'card' | 'win' | 'lose' | 'push';

export const SOUND_KEY = 'coup.player.sound';

/** The stored setting: on unless it was turned off. */
export function loadSoundOn(storage: Pick<Storage, 'getItem'> | null): boolean {
  try {
    return storage?.getItem(SOUND_KEY) !== 'off';
  } catch {
    return true;
  }
}

export function saveSoundOn(storage: Pick<Storage, 'setItem'> | null, on: boolean): void {
  try {
    storage?.setItem(SOUND_KEY, on ? 'on' : 'off');
  } catch {
    // storage full or blocked: the setting lasts for this page only
  }
}

/** Tones per sound: [frequency Hz, start s, length s]. */
export const TONES: Readonly<Record<SoundName, readonly (readonly [number, number, number])[]>> = {
  chip: [[1800, 0, 0.04]],
  card: [[600, 0, 0.05]],
  win: [
    [660, 0, 0.12],
    [880, 0.12, 0.18],
  ],
  lose: [
    [330, 0, 0.14],
    [220, 0.14, 0.22],
  ],
  push: [[500, 0, 0.15]],
};

/** The slice of an AudioContext the player uses (a fake one in tests). */
export interface AudioLike {
  readonly currentTime: number;
  readonly destination: AudioNode;
  createOscillator(): OscillatorNode;
  createGain(): GainNode;
  resume?(): Promise<void>;
}

/** A sound player; `play` does nothing while `enabled()` is false or WebAudio is missing. */
export function soundPlayer(enabled: () => boolean, makeContext: () => AudioLike | null = defaultContext) {
  let ctx: AudioLike | null | undefined;
  return {
    play(name: SoundName): void {
      if (!enabled()) return;
      if (ctx === undefined) ctx = makeContext();
      if (!ctx) return;
      const c = ctx;
      void c.resume?.().catch(() => undefined);
      for (const [freq, start, length] of TONES[name]) {
        const osc = c.createOscillator();
        const gain = c.createGain();
        const t0 = c.currentTime + start;
        osc.type = name === 'card' ? 'triangle' : 'sine';
        osc.frequency.setValueAtTime(freq, t0);
        gain.gain.setValueAtTime(0.0001, t0);
        gain.gain.exponentialRampToValueAtTime(0.15, t0 + 0.01);
        gain.gain.exponentialRampToValueAtTime(0.0001, t0 + length);
        osc.connect(gain);
        gain.connect(c.destination);
        osc.start(t0);
        osc.stop(t0 + length + 0.02);
      }
    },
  };
}

function defaultContext(): AudioLike | null {
  const w = globalThis as unknown as {
    AudioContext?: new () => AudioLike;
    webkitAudioContext?: new () => AudioLike;
  };
  const Ctor = w.AudioContext ?? w.webkitAudioContext;
  if (!Ctor) return null;
  try {
    return new Ctor();
  } catch {
    return null;
  }
}
